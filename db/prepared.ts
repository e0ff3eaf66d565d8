/**
 * Prepared hot queries: a query built once per process with placeholders and run by
 * `.execute(values)`, so Drizzle does not rebuild its SQL on every request. Only the process's
 * database handle keeps them; inside a transaction the query is built for that transaction
 * (a prepared query runs on the handle it was prepared on).
 */
import { sql, type Placeholder, type SQL } from "drizzle-orm";
// On globalThis, like the handle itself (db/index.ts): Next bundles each route with its own copy
// of this module, and a module-level set would know the handle only in the bundle that opened it,
// so every other route rebuilt its "prepared" queries on every request (seen in bench/profile.ts).
const KEY = Symbol.for("remit.prepared");
type G = typeof globalThis & { [KEY]?: { roots: WeakSet<object>; cache: WeakMap<object, Map<string, unknown>> } };
const { roots, cache } = ((globalThis as G)[KEY] ??= { roots: new WeakSet(), cache: new WeakMap() });

/** Called by db/index.ts for the process's database handle. */
export function keepPrepared(db: object): void {
  roots.add(db);
}

export function prepared<E extends object, T>(executor: E, name: string, build: (executor: E) => T): T {
  if (!roots.has(executor)) return build(executor);
  let byName = cache.get(executor);
  if (!byName) cache.set(executor, (byName = new Map()));
  let query = byName.get(name) as T | undefined;
  if (!query) byName.set(name, (query = build(executor)));
  return query;
}

// A transaction's queries: `prepared` keeps queries of the process's handle only, so a
// query of a write's transaction was rebuilt (Drizzle walking its SQL tree, 15-26 % of a write's
// samples) on every request. Kept by the session's kind (driver) and name, on globalThis as above.
const TX_KEY = Symbol.for("remit.prepared.tx");
type GT = typeof globalThis & { [TX_KEY]?: WeakMap<object, Map<string, object>> };
const templates = ((globalThis as GT)[TX_KEY] ??= new WeakMap());

/**
 * A query built once per process with placeholders (`build` runs once), run on the connection of
 * `executor` (a transaction, or the handle): each call answers a copy of the first build bound to
 * that connection. Drizzle 0.45's prepared query holds its connection as `client`, on both drivers
 * (postgres.js and PGlite); anything else fails loudly rather than run on a closed transaction.
 */
export function preparedOn<E extends object, T extends object>(executor: E, name: string, build: (executor: E) => T): T {
  const session = (executor as { session?: { client?: unknown } }).session;
  if (!session?.client) throw new Error(`preparedOn(${name}): the executor has no Drizzle session`);
  const kind = Object.getPrototypeOf(session) as object;
  let byName = templates.get(kind);
  if (!byName) templates.set(kind, (byName = new Map()));
  let template = byName.get(name) as T | undefined;
  if (!template) byName.set(name, (template = build(executor)));
  if (!("client" in template)) throw new Error(`preparedOn(${name}): not a Drizzle prepared query`);
  return Object.assign(Object.create(Object.getPrototypeOf(template) as object) as T, template, { client: session.client });
}

/**
 * The values of an insert or update as placeholders named by their keys, for preparedOn: `shape`
 * names the prepared statement (the keys given, and which are null: a null is written as such,
 * since Drizzle maps a placeholder's value through its column without a null check). Undefined
 * keys are left out, as Drizzle does.
 */
export function placeholdersFor(values: Record<string, unknown>): { shape: string; set: Record<string, SQL | Placeholder> } {
  const keys = Object.keys(values)
    .filter((k) => values[k] !== undefined)
    .sort();
  return {
    shape: keys.map((k) => (values[k] === null ? `${k}=null` : k)).join(","),
    set: Object.fromEntries(keys.map((k) => [k, values[k] === null ? sql`null` : sql.placeholder(k)])),
  };
}
