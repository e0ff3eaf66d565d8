/**
 * Statements counted on a database handle or a unit of work's transaction connection (BEGIN and
 * COMMIT apart), for the statements-per-write and per-job tests: Drizzle runs every query through
 * its session's client (postgres.js `unsafe`, PGlite `query`), the prepared ones of db/prepared.ts
 * too (bound to that client when used), and the unit's effects at commit with them.
 */
import type { Db, Tx } from "@/db";

/**
 * Calls `count` for each statement sent through `handle` (a Drizzle database or transaction) from
 * now on, and `roundTrip` for each sent while none of them is awaiting its answer (statements sent
 * together, as Promise.all pipelines them on one connection, are one round trip).
 */
export function countStatements(handle: Db | Tx, count: () => void, roundTrip: () => void = () => {}, opts: { transactions?: boolean } = {}): void {
  const session = (handle as unknown as { session: { client: object } }).session;
  let awaiting = 0;
  const answered = () => void awaiting--;
  session.client = counting(session.client);
  function counting(client: object): object {
    return new Proxy(client, { get });
  }
  function get(target: object, property: string | symbol, receiver: unknown): unknown {
    const value = Reflect.get(target, property, receiver) as unknown;
    // transactions: the statements of a transaction opened on the handle too (postgres.js
    // `begin`, PGlite `transaction` hand the work a client of its own; BEGIN and COMMIT are not sent through it).
    if (opts.transactions && (property === "begin" || property === "transaction") && typeof value === "function") {
      return (...args: unknown[]) => {
        const work = args.pop() as (inner: object) => unknown;
        return (value as (...a: unknown[]) => unknown).apply(target, [...args, (inner: object) => work(counting(inner))]);
      };
    }
    if ((property === "unsafe" || property === "query") && typeof value === "function") {
      return (...args: unknown[]) => {
        count();
        if (awaiting++ === 0) roundTrip();
        const sent = (value as (...a: unknown[]) => unknown).apply(target, args) as PromiseLike<unknown>;
        // postgres.js sends a query once it is awaited, a microtask later: the driver's own
        // chained calls (`.values()`) still apply.
        sent.then(answered, answered);
        return sent;
      };
    }
    return typeof value === "function" ? (value as () => unknown).bind(target) : value;
  }
}

/** Runs `work` as a unit of work on `db`, counting the statements its transaction sends. */
export async function countedUnit<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<{ value: T; statements: number; roundTrips: number }> {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  let statements = 0;
  let roundTrips = 0;
  const value = await inUnit(
    async ({ tx }) => {
      countStatements(
        tx,
        () => statements++,
        () => roundTrips++,
      );
      return work(tx);
    },
    { db },
  );
  return { value, statements, roundTrips };
}
