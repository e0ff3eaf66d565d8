/**
 * Statements counted on a database handle or a unit of work's transaction connection (BEGIN and
 * COMMIT apart), for the statements-per-write and per-job tests: Drizzle runs every query through
 * its session's client (postgres.js `unsafe`, PGlite `query`), the prepared ones of db/prepared.ts
 * too (bound to that client when used), and the unit's effects at commit with them.
 */
import type { Db, Tx } from "@/db";

/** Calls `count` for each statement sent through `handle` (a Drizzle database or transaction) from now on. */
export function countStatements(handle: Db | Tx, count: () => void): void {
  const session = (handle as unknown as { session: { client: object } }).session;
  session.client = new Proxy(session.client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if ((property === "unsafe" || property === "query") && typeof value === "function") {
        return (...args: unknown[]) => {
          count();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === "function" ? (value as () => unknown).bind(target) : value;
    },
  });
}

/** Runs `work` as a unit of work on `db`, counting the statements its transaction sends. */
export async function countedUnit<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<{ value: T; statements: number }> {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  let statements = 0;
  const value = await inUnit(
    async ({ tx }) => {
      countStatements(tx, () => statements++);
      return work(tx);
    },
    { db },
  );
  return { value, statements };
}
