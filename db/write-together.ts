import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Executor } from "./index";

/**
 * Several writes sent as one statement, each a data-modifying CTE (issue 13: a write call's cost
 * is its round trips). They run on one snapshot: none may depend on what another writes in the
 * same call (a later CTE may read an earlier one's RETURNING by its name, w0, w1...). `then` is
 * the statement's final query; its rows are answered.
 */
export async function writeTogether<R = unknown>(ex: Executor, writes: SQLWrapper[], then: SQL = sql`select 1`): Promise<R[]> {
  const ctes = sql.join(
    // getSQL(): a query builder embedded as such would be parenthesised (a subquery).
    writes.map((w, i) => sql`${sql.raw(`w${i}`)} as (${w.getSQL()})`),
    sql`, `,
  );
  return rowsOf<R>(await ex.execute(sql`with ${ctes} ${then}`));
}

/** Rows of a raw `execute` result: PGlite answers { rows }, postgres.js an array. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
