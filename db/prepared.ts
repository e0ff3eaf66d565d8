/**
 * Prepared hot queries (issue 13): a query built once per process with placeholders and run by
 * `.execute(values)`, so Drizzle does not rebuild its SQL on every request. Only the process's
 * database handle keeps them; inside a transaction the query is built for that transaction
 * (a prepared query runs on the handle it was prepared on).
 */
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
