import { readFile } from "node:fs/promises";
import path from "node:path";
import { validateXML } from "xmllint-wasm";

/**
 * XML Schema validation with xmllint-wasm: libxml2's own validator compiled to WebAssembly, so it
 * installs from the npm registry with no native binary to fetch (docs/decisions.md). The schemas
 * are the copies shipped in data/iso20022 (README there names their source).
 */
export const SCHEMAS = { "camt.053.001.08": "camt.053.001.08.xsd" } as const;
export type SchemaName = keyof typeof SCHEMAS;

const cache = new Map<SchemaName, Promise<string>>();
function schemaText(name: SchemaName): Promise<string> {
  let text = cache.get(name);
  if (!text) {
    text = readFile(path.join(process.cwd(), "data", "iso20022", SCHEMAS[name]), "utf8");
    cache.set(name, text);
  }
  return text;
}

export interface SchemaProblem {
  line: number | null;
  message: string;
}

/** The document's problems against the schema (empty: valid). At most `limit` are returned. */
export async function schemaProblems(xml: string, name: SchemaName, limit = 20): Promise<SchemaProblem[]> {
  const result = await validateXML({
    xml: { fileName: "document.xml", contents: xml },
    schema: { fileName: SCHEMAS[name], contents: await schemaText(name) },
    // 64 MiB of WebAssembly memory: statements of many thousand entries fit.
    maxMemoryPages: 1024,
  });
  if (result.valid) return [];
  const problems = result.errors.map((e) => ({ line: e.loc?.lineNumber ?? null, message: e.message.trim() }));
  return problems.length > 0 ? problems.slice(0, limit) : [{ line: null, message: "not a valid document" }];
}
