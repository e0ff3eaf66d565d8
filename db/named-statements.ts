import type { Sql } from "postgres";

/**
 * The postgres.js client Drizzle is given: every statement it sends is a named prepared statement,
 * kept per connection by its text and parameter types (postgres.js's own default).
 *
 * Why: Drizzle asks postgres.js for an unnamed statement unless the query was built with
 * `.prepare(name)` (db/prepared.ts does that for the hot reads), and postgres.js sends an unnamed
 * statement that has parameters in two round trips: Parse and Describe, a wait for the parameter
 * types, then Bind and Execute. A statement it has prepared on that connection before is one round
 * trip, and PostgreSQL does not parse it again. Measured on this machine (a transaction of a locking
 * select, an update and a select, 3,000 in a row, one connection): PostgreSQL's backend CPU 0.53-0.58 →
 * 0.32-0.37 ms, the client's 1.11-1.15 → 0.90-0.99 ms per transaction (docs/performance.md, lever
 * history).
 *
 * The cache grows with the number of distinct statement texts (a list filter of n ids is one text per
 * n); postgres.js closes each connection after 30-60 minutes (max_lifetime), which empties it. A
 * transaction-mode connection pooler (PgBouncer before 1.21) cannot carry named statements across
 * connections: docs/scaling.md.
 */
export function namingEveryStatement<T extends Sql>(sql: T): T {
  return new Proxy(sql, {
    get(target, property) {
      if (property === "unsafe") {
        return (query: string, parameters?: unknown[], options?: object) => target.unsafe(query, parameters as never, { ...options, prepare: true });
      }
      if (property === "begin" || property === "savepoint") {
        // A transaction's (or savepoint's) own client is wrapped too: most statements run there.
        return (...args: unknown[]) => {
          const work = args.pop() as (inner: Sql) => unknown;
          const open = Reflect.get(target, property) as (...a: unknown[]) => unknown;
          return open.call(target, ...args, (inner: Sql) => work(namingEveryStatement(inner)));
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
