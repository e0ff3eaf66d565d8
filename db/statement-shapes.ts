/**
 * A statement's text built once per shape: the unit of work's commit statement (its
 * effects as data-modifying CTEs, db/write-together.ts) is a Drizzle SQL tree assembled per
 * request, and Drizzle's rendering of it (sqlToQuery: an `is()` prototype walk per chunk per check,
 * each chunk's text escaped and merged) was the largest part of Drizzle's 8-19 % of a write's
 * samples. Here one cheap walk of the tree answers its shape (every text-making chunk: strings,
 * tables, columns, where a parameter goes) and its parameters as Drizzle would bind them; the text
 * is Drizzle's own, rendered the first time a shape is seen and kept (bounded, least recently used
 * first out). The driver then runs it as a named statement of that text (db/named-statements.ts,
 * db/pglite-client.ts), so a request only binds values. Installed on the process's database handle
 * (db/index.ts), so every statement Drizzle renders per request is built this way.
 *
 * Why it cannot write something else: the text is Drizzle's rendering of a tree of that shape, and
 * on the first sight of a shape Drizzle's parameters are compared with this walk's; if they differ
 * (a chunk this walk reads otherwise, a column default computed per render) the shape is kept as
 * "Drizzle's own every time". A chunk this walk does not know (a placeholder, a subquery, inlined
 * parameters) leaves the statement to Drizzle as before.
 */
import { is, Param, Placeholder, SQL, StringChunk, Name, Table, Column, View, Subquery, type Query } from "drizzle-orm";

export interface Shape {
  /** Determines the statement's text: two trees with one key render the same text. */
  key: string;
  /** The values bound, in Drizzle's order (each mapped to the driver as its column maps it). */
  params: unknown[];
}

type Kind = "string" | "name" | "sql" | "table" | "column" | "param" | "wrapper" | "value" | "unknown";

// By constructor: Drizzle's own `is` (which also knows another bundle's copy of a class, by its
// entity kind: Next bundles drizzle-orm into each route) runs once per class, not per chunk.
const kinds = new WeakMap<object, Kind>();

function classify(chunk: object): Kind {
  if (is(chunk, StringChunk)) return "string";
  if (is(chunk, Name)) return "name";
  if (is(chunk, SQL)) return "sql";
  if (is(chunk, Table)) return "table";
  if (is(chunk, Column)) return "column";
  // A view, a placeholder, an aliased field, a subquery: not on the write path; Drizzle renders them.
  if (is(chunk, View) || is(chunk, Placeholder) || is(chunk, SQL.Aliased) || is(chunk, Subquery)) return "unknown";
  if (is(chunk, Param)) return "param";
  if (typeof (chunk as { getSQL?: unknown }).getSQL === "function") return "wrapper";
  return "value";
}

function kindOf(chunk: unknown): Kind {
  if (chunk === null || typeof chunk !== "object") return typeof chunk === "function" ? "unknown" : "value";
  const ctor = (chunk as { constructor?: object }).constructor;
  if (!ctor) return "value";
  let kind = kinds.get(ctor);
  if (!kind) kinds.set(ctor, (kind = classify(chunk)));
  return kind;
}

// Drizzle's own symbols (Table.Symbol.Name, .Schema; IsAlias), registered globally by it.
const NAME = Symbol.for("drizzle:Name");
const SCHEMA = Symbol.for("drizzle:Schema");
const IS_ALIAS = Symbol.for("drizzle:IsAlias");
const inlined = (q: SQL) => (q as unknown as { shouldInlineParams: boolean }).shouldInlineParams;
const tableKey = (t: Record<symbol, unknown>) => `${String(t[SCHEMA] ?? "")}.${String(t[NAME])}${t[IS_ALIAS] ? "!" : ""}`;

class Unshaped extends Error {}

/**
 * Mirrors Drizzle 0.45's SQL.buildQueryFromSourceParams (drizzle-orm/sql/sql.js) for the chunks a
 * write is made of: the same order of checks, the same parameters; `key` gets what makes the text.
 * The separator \u0000 never occurs in SQL text (PostgreSQL refuses it), so parts never run together.
 */
function walk(chunks: readonly unknown[], key: string[], params: unknown[]): void {
  for (const chunk of chunks) {
    if (chunk === undefined) continue;
    if (Array.isArray(chunk)) {
      // Drizzle renders an array as a parenthesised list of its chunks.
      key.push("\u0000(");
      chunk.forEach((c, i) => {
        if (i > 0) key.push("\u0000,");
        walk([c], key, params);
      });
      key.push("\u0000)");
      continue;
    }
    switch (kindOf(chunk)) {
      case "string":
        key.push((chunk as StringChunk).value.join(""));
        break;
      case "name":
        key.push(`\u0000N${(chunk as Name).value}`);
        break;
      case "sql":
        if (inlined(chunk as SQL)) throw new Unshaped();
        walk((chunk as SQL).queryChunks, key, params);
        break;
      case "table":
        key.push(`\u0000T${tableKey(chunk as Record<symbol, unknown>)}`);
        break;
      case "column": {
        const column = chunk as Column;
        // A column named by its key is cased by the dialect from the table's original name: not in the key.
        if (column.keyAsName) throw new Unshaped();
        key.push(`\u0000C${tableKey(column.table as unknown as Record<symbol, unknown>)}.${column.name}`);
        break;
      }
      case "param": {
        const { value, encoder } = chunk as Param;
        if (value !== null && kindOf(value) !== "value") throw new Unshaped();
        const mapped = value === null ? null : (encoder as { mapToDriverValue(v: unknown): unknown }).mapToDriverValue(value);
        const mappedKind = kindOf(mapped);
        if (mappedKind === "sql") walk([mapped], key, params);
        else if (mappedKind !== "value") throw new Unshaped();
        else {
          key.push("\u0000$");
          params.push(mapped);
        }
        break;
      }
      case "wrapper": {
        // A query builder inside the statement: parenthesised unless it says otherwise, as Drizzle does.
        const wrapper = chunk as { getSQL(): SQL; shouldOmitSQLParens?: () => boolean };
        const parens = !wrapper.shouldOmitSQLParens?.();
        if (parens) key.push("(");
        walk([wrapper.getSQL()], key, params);
        if (parens) key.push(")");
        break;
      }
      case "value":
        key.push("\u0000$");
        params.push(chunk);
        break;
      default:
        throw new Unshaped();
    }
  }
}

/** The shape of a statement, or undefined where a chunk is not one this walk reads (Drizzle renders it). */
export function shapeOf(query: SQL): Shape | undefined {
  if (inlined(query)) return undefined;
  const key: string[] = [];
  const params: unknown[] = [];
  try {
    walk(query.queryChunks, key, params);
  } catch (e) {
    if (e instanceof Unshaped) return undefined;
    throw e;
  }
  return { key: key.join(""), params };
}

/**
 * Most shapes kept: the service has a few hundred statement texts (as db/pglite-client.ts counts
 * them); a key is about as long as its text, so this holds well under a megabyte.
 */
const CAPACITY = 500;

/** Texts by shape key; null: a shape whose parameters Drizzle binds otherwise (rendered by Drizzle every time). */
export class ShapeCache {
  // Insertion order is use order (a used shape is moved to the end): the first is the coldest.
  private readonly texts = new Map<string, string | null>();
  /** Statements sent with a kept text, and those Drizzle rendered (what a test or a bench can count). */
  hits = 0;
  renders = 0;
  /**
   * Also render every kept shape with Drizzle and refuse a difference (the test suite runs so:
   * STATEMENT_SHAPES_CHECK=1, set by scripts/test.mjs), so every statement the suite sends proves
   * this walk against Drizzle's rendering, not only the shapes of this module's own tests.
   */
  check = false;
  constructor(readonly capacity = CAPACITY) {}

  get size(): number {
    return this.texts.size;
  }

  /**
   * The query to send for `shape`: the kept text with this request's parameters, or `render()`'s
   * (Drizzle's) on the shape's first sight, kept when its parameters are this walk's.
   */
  query(shape: Shape, render: () => Query): Query {
    const kept = this.texts.get(shape.key);
    if (kept !== undefined) {
      this.texts.delete(shape.key);
      this.texts.set(shape.key, kept);
      if (kept === null) {
        this.renders++;
        return render();
      }
      this.hits++;
      if (this.check) checkAgainstDrizzle(shape, kept, render());
      return { sql: kept, params: shape.params };
    }
    this.renders++;
    const built = render();
    if (this.texts.size >= this.capacity) this.texts.delete(this.texts.keys().next().value!);
    this.texts.set(shape.key, sameParams(built.params, shape.params) ? built.sql : null);
    return built;
  }
}

function checkAgainstDrizzle(shape: Shape, kept: string, drizzle: Query): void {
  if (drizzle.sql !== kept || !sameParams(drizzle.params, shape.params))
    throw new Error(`statement-shapes: a kept text differs from Drizzle's rendering of the same shape.\nkept:    ${kept}\ndrizzle: ${drizzle.sql}`);
}

function sameParams(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  // Values mapped afresh by each walk (a JSON array, a date) are equal by content, not identity.
  return a.every(
    (x, i) => Object.is(x, b[i]) || (typeof x === "object" && x !== null && typeof b[i] === "object" && JSON.stringify(x) === JSON.stringify(b[i])),
  );
}

// On globalThis, like db/prepared.ts's: each route bundle has its own copy of this module.
const KEY = Symbol.for("remit.statement-shapes");
type G = typeof globalThis & { [KEY]?: ShapeCache };
export const shapes = ((globalThis as G)[KEY] ??= new ShapeCache());
shapes.check = process.env.STATEMENT_SHAPES_CHECK === "1";

interface Dialect {
  sqlToQuery(query: SQL, invokeSource?: string): Query;
}

/**
 * Makes the Drizzle database `db` (and its transactions: they share its dialect) render each
 * statement's text once per shape, whoever builds it: the unit of work's commit statement, and the
 * locking selects and updates built per request on the write path. Statements with placeholders
 * (db/prepared.ts) are rendered once anyway and are left to Drizzle, as are the migrator's
 * (`invokeSource`). The typings Drizzle adds to a query are read by neither driver used here
 * (postgres.js, PGlite), so a kept text carries none.
 */
export function renderOncePerShape(db: object, cache: ShapeCache = shapes): void {
  const dialect = (db as { dialect?: Dialect }).dialect;
  if (!dialect) throw new Error("renderOncePerShape: not a Drizzle database");
  const render = dialect.sqlToQuery.bind(dialect);
  dialect.sqlToQuery = (query, invokeSource) => {
    const shape = invokeSource === undefined ? shapeOf(query) : undefined;
    return shape ? cache.query(shape, () => render(query)) : render(query, invokeSource);
  };
}
