import { randomUUID } from "node:crypto";
import { parse, protocol, type messages, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/**
 * The client Drizzle's PGlite driver talks to: PGlite's own `query`, but each statement
 * text is parsed and planned once per process, as postgres.js does on PostgreSQL.
 *
 * PGlite's `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six separate calls
 * into its WebAssembly PostgreSQL, with an unnamed statement that PostgreSQL parses, analyses and
 * plans again every time. Here a statement is parsed once under a name of its own (its parameter
 * types and result columns learnt from Describe then), and each run is one call: Bind, Execute, Sync.
 * PostgreSQL itself keeps a named statement's plans valid: it re-plans after any change to what
 * they read (DDL, ANALYZE, search_path), so nothing here can run a stale plan. The one change it
 * refuses is a statement whose result columns changed under it (error 0A000, after an ALTER on a
 * `select *`, a column renamed): that statement is forgotten here and parsed afresh on its next run.
 * So the result columns Describe answered at the parse stay true, and a run sends no Describe.
 *
 * A run's answer is decoded here (`RunDecoder`), not by PGlite's protocol parser and `parseResults`,
 * which cost more CPU than the WebAssembly PostgreSQL on the service's reads:
 * `parseResults` copies PGlite's ~390 type parsers into a new object for every query that passes
 * parsers (Drizzle always does: about 250 µs each), and the protocol parser copies each value's
 * bytes into an ArrayBuffer of its own before decoding it. Here each column's parser is looked up
 * once per result and values are decoded straight from PostgreSQL's output. The values are those
 * PGlite's own query answers: the same parsers, the caller's over PGlite's.
 * Notifications (LISTEN/NOTIFY) are not delivered through this path: the service does not LISTEN
 * on PGlite (lib/platform/jobs/notify.ts); a NOTIFY sent through it would reach no PGlite listener.
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
  /** The result columns, from Describe at the parse (none for a statement that returns no rows). */
  fields: { name: string; dataTypeID: number }[];
}

/** Most statements kept: the service has a few hundred texts; each holds its plan in PostgreSQL. */
const CAPACITY = 500;
const RESULT_TYPE_CHANGED = "0A000";
const { serialize } = protocol;
// Execute (unnamed portal, every row) and Sync: the same bytes for every run.
const EXECUTE_SYNC = concat([serialize.execute({}), serialize.sync()]);

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

type RowDescriptionMessage = messages.RowDescriptionMessage;
type Parser = (value: string, typeId: number) => unknown;

const D = 0x44; // DataRow
const C = 0x43; // CommandComplete
const E = 0x45; // ErrorResponse
const N = 0x4e; // NoticeResponse
// Commands whose tag's count is rows written: PGlite's affectedRows.
const WRITES = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"]);

/**
 * One run's answer (Bind, Execute, Sync), decoded as it streams out of PostgreSQL: DataRows into
 * rows, the CommandComplete tag into the counts, an ErrorResponse into PGlite's DatabaseError (by
 * PGlite's own protocol parser: errors are rare and must read exactly as PGlite reports them).
 * BindComplete, ReadyForQuery and ParameterStatus carry nothing a result needs. A chunk is a view
 * of the WebAssembly memory, valid only during the call: a message cut at its end is copied.
 */
class RunDecoder {
  private readonly rows: unknown[] = [];
  private readonly parsers: (Parser | undefined)[];
  private readonly names: string[];
  private readonly asArrays: boolean;
  private command: string | undefined;
  private error: messages.DatabaseError | undefined;
  private rest: Uint8Array | undefined;

  constructor(
    private readonly fields: Statement["fields"],
    defaults: Record<number, Parser>,
    private readonly options: QueryOptions | undefined,
  ) {
    const own = options?.parsers as Record<number, Parser> | undefined;
    this.parsers = fields.map((f) => own?.[f.dataTypeID] ?? defaults[f.dataTypeID]);
    this.names = fields.map((f) => f.name);
    this.asArrays = options?.rowMode === "array";
  }

  push(chunk: Uint8Array): void {
    const bytes = this.rest ? concat([this.rest, chunk]) : chunk;
    this.rest = undefined;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    while (at + 5 <= bytes.length) {
      const end = at + 1 + buffer.readUInt32BE(at + 1);
      if (end > bytes.length) break;
      const code = bytes[at];
      if (code === D) this.row(buffer, at + 5);
      else if (code === C) this.command = buffer.toString("utf8", at + 5, end - 1);
      else if (code === E || code === N) this.report(bytes.subarray(at, end));
      at = end;
    }
    if (at < bytes.length) this.rest = bytes.slice(at);
  }

  private row(buffer: Buffer, at: number): void {
    const count = buffer.readInt16BE(at);
    at += 2;
    const row: unknown[] | Record<string, unknown> = this.asArrays ? new Array(count) : {};
    for (let i = 0; i < count; i++) {
      const length = buffer.readInt32BE(at);
      at += 4;
      let value: unknown = null;
      if (length >= 0) {
        const text = buffer.toString("utf8", at, at + length);
        at += length;
        const parser = this.parsers[i];
        value = parser ? parser(text, this.fields[i].dataTypeID) : text;
      }
      if (this.asArrays) (row as unknown[])[i] = value;
      else (row as Record<string, unknown>)[this.names[i]] = value;
    }
    this.rows.push(row);
  }

  private report(message: Uint8Array): void {
    new protocol.Parser().parse(message, (m) => {
      if (m.name === "error") this.error ??= m as messages.DatabaseError;
      else if (m.name === "notice") this.options?.onNotice?.(m as messages.NoticeMessage);
    });
  }

  /** As PGlite's `parseResults` answers one statement's result; throws the run's first error. */
  result(): Results {
    if (this.error) throw this.error;
    if (this.command === undefined) return { affectedRows: 0, rows: [], fields: [] };
    const parts = this.command.split(" ");
    const command = parts[0];
    const rowCount = parseInt(parts[parts.length - 1], 10);
    const result: Results = {
      rows: this.rows as Results["rows"],
      fields: this.fields,
      command,
      affectedRows: WRITES.has(command) ? rowCount : 0,
    } as Results;
    if (!Number.isNaN(rowCount)) result.rowCount = rowCount;
    return result;
  }
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
    const described = messages.find((m): m is RowDescriptionMessage => m.name === "rowDescription");
    const fields = described ? described.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) : [];
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages), fields };
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
      const decoder = new RunDecoder(statement.fields, pg.parsers, options);
      await pg.execProtocolRawStream(concat([serialize.bind({ statement: statement.name, values }), EXECUTE_SYNC]), {
        syncToFs: false,
        onRawData: (bytes) => decoder.push(bytes),
      });
      return decoder.result() as Results<T>;
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
