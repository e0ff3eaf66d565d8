import { randomUUID } from "node:crypto";
import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/**
 * The client Drizzle's PGlite driver talks to (issue 26): PGlite's own `query`, but each statement
 * text is parsed and planned once per process, as postgres.js does on PostgreSQL.
 *
 * PGlite's `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six separate calls
 * into its WebAssembly PostgreSQL, with an unnamed statement that PostgreSQL parses, analyses and
 * plans again every time. Here a statement is parsed once under a name of its own (its parameter
 * types learnt from Describe then), and each run is one call: Bind, Describe, Execute, Sync.
 * PostgreSQL itself keeps a named statement's plans valid: it re-plans after any change to what
 * they read (DDL, ANALYZE, search_path), so nothing here can run a stale plan. The one change it
 * refuses is a statement whose result columns changed under it (error 0A000, after an ALTER on a
 * `select *`): that statement is forgotten here and parsed afresh on its next run.
 *
 * Locking and durability are PGlite's own, unchanged: a query outside a transaction takes its
 * transaction and query locks and is followed by its file-system sync; inside `transaction` the
 * query lock, as PGlite's own transaction object does. Statements are not transactional in
 * PostgreSQL (a rollback keeps them), so the cache stays true whatever a transaction does.
 */
export interface PgliteClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T>;
}

interface Statement {
  name: string;
  paramTypes: number[];
}

/** Most statements kept: the service has a few hundred texts; each holds its plan in PostgreSQL. */
const CAPACITY = 500;
const RESULT_TYPE_CHANGED = "0A000";
const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function preparingClient(pg: PGlite, capacity = CAPACITY): PgliteClient & { statements: () => number } {
  // Insertion order is use order (a used statement is moved to the end): the first is the coldest.
  const statements = new Map<string, Statement>();
  // Names of this client's own: another client on the same PGlite (a test's) never collides.
  const prefix = `remit_${randomUUID().slice(0, 8)}_`;
  let counter = 0;

  async function prepare(text: string): Promise<Statement> {
    const name = `${prefix}${++counter}`;
    const parts: Uint8Array[] = [];
    if (statements.size >= capacity) {
      const [coldest, evicted] = statements.entries().next().value!;
      statements.delete(coldest);
      parts.push(serialize.close({ type: "S", name: evicted.name }));
    }
    parts.push(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync());
    const messages = await pg.execProtocolStream(concat(parts), { syncToFs: false });
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    return statement;
  }

  /** One statement, under the lock its caller holds. */
  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    let statement = statements.get(text);
    try {
      if (statement) {
        statements.delete(text);
        statements.set(text, statement);
      } else statement = await prepare(text);
      const { paramTypes } = statement;
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const serializer = options?.serializers?.[paramTypes[i]] ?? pg.serializers[paramTypes[i]];
        return serializer ? serializer(param) : String(param);
      });
      const messages = await pg.execProtocolStream(
        concat([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
      return parse.parseResults(messages, pg.parsers, options)[0] as Results<T>;
    } catch (e) {
      // Forgotten, not closed: a Close now could fail in the aborted transaction and hide this error;
      // an orphan statement costs PostgreSQL a little memory, once per such schema change.
      if (statement && (e as { code?: string }).code === RESULT_TYPE_CHANGED && statements.get(text) === statement) statements.delete(text);
      // As PGlite's own query reports it: the statement and its parameters on the error.
      throw Object.assign(e as object, { query: text, params, queryOptions: options });
    }
  }

  /** Options this path does not handle (COPY's blob, declared parameter types): PGlite's own query. */
  const ownPath = (options?: QueryOptions) => Boolean(options?.blob || options?.paramTypes);

  return {
    statements: () => statements.size,
    query<T>(text: string, params: unknown[] = [], options?: QueryOptions) {
      if (ownPath(options)) return pg.query<T>(text, params, options);
      return pg._runExclusiveTransaction(() =>
        pg.runExclusive(async () => {
          const result = await run<T>(text, params, options);
          await pg.syncToFs();
          return result;
        }),
      );
    },
    transaction<T>(callback: (tx: Transaction) => Promise<T>) {
      return pg.transaction((tx) =>
        callback({
          ...tx,
          get closed() {
            return tx.closed;
          },
          query<R>(text: string, params: unknown[] = [], options?: QueryOptions) {
            if (ownPath(options) || tx.closed) return tx.query<R>(text, params, options);
            return pg.runExclusive(() => run<R>(text, params, options));
          },
        }),
      );
    },
  };
}
