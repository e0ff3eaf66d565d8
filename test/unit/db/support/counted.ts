/**
 * Statements counted on a unit of work's transaction connection (BEGIN and COMMIT apart), for
 * the statements-per-job tests: Drizzle runs every query of a transaction through its session's
 * client (postgres.js `unsafe`, PGlite `query`), the prepared ones of db/prepared.ts too (bound to
 * that client when used), and the unit's effects at commit with them.
 */
import type { Db, Tx } from "@/db";

export async function countedUnit<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<{ value: T; statements: number }> {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  let statements = 0;
  const value = await inUnit(
    async ({ tx }) => {
      const session = (tx as unknown as { session: { client: object } }).session;
      session.client = new Proxy(session.client, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if ((property === "unsafe" || property === "query") && typeof value === "function") {
            return (...args: unknown[]) => {
              statements++;
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          }
          return typeof value === "function" ? (value as () => unknown).bind(target) : value;
        },
      });
      return work(tx);
    },
    { db },
  );
  return { value, statements };
}
