import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { rowsOf, type Executor } from "./index";

/** A write for writeTogether: a query not yet run, or one named so a later write can read its RETURNING. */
export type Write = SQLWrapper | { name: string; write: SQLWrapper };

const named = (writes: Write[]) => writes.map((w, i) => ("name" in w ? w : { name: `w${i}`, write: w }));

/**
 * Several writes sent as one statement, each a data-modifying CTE (a write call's cost
 * is its round trips). They run on one snapshot: none may depend on what another writes (foreign
 * keys are checked at the statement's end, so a row may point at one inserted beside it; a write
 * may read a named write's RETURNING). `then` is the statement's final query; its rows are answered.
 */
export async function writeTogether<R = unknown>(ex: Executor, writes: Write[], then: SQL = sql`select 1`): Promise<R[]> {
  const ctes = sql.join(
    // getSQL(): a query builder embedded as such would be parenthesised (a subquery).
    named(writes).map((w) => sql`${sql.identifier(w.name)} as (${w.write.getSQL()})`),
    sql`, `,
  );
  // Its text is rendered once per shape (which writes, which columns, how many rows): db/statement-shapes.ts.
  return rowsOf<R>(await ex.execute(sql`with ${ctes} ${then}`));
}

/** The writes as the CTEs of a typed query built on the result (`withWrites(tx, writes).update(...)`). */
export function withWrites<E extends Executor>(ex: E, writes: Write[]) {
  return ex.with(...named(writes).map((w) => ex.$with(w.name, {}).as(w.write.getSQL())));
}
