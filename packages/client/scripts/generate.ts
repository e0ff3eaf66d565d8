/**
 * Generates src/schema.ts (the client's types) from the service's OpenAPI document with
 * openapi-typescript, formatted with the repository's Prettier settings so the file is stable.
 *   npm run client:generate                      # from http://localhost:3000/v1/openapi.json
 *   npm run client:generate -- http://host:port  # from another running service
 * test/integration/client/types-in-sync.test.ts regenerates from the live document and compares.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import prettier from "prettier";

/** Run from the repository root (npm scripts and the test runner do). */
export const SCHEMA_FILE = path.resolve("packages/client/src/schema.ts");

/** The TypeScript source of the types for an OpenAPI document (a parsed object). */
export async function generateSchemaSource(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0]);
  const options = (await prettier.resolveConfig(SCHEMA_FILE)) ?? {};
  return prettier.format(COMMENT_HEADER + astToString(ast), { ...options, filepath: SCHEMA_FILE });
}

/** Fetches the live document of a running service. */
export async function fetchDocument(baseUrl: string): Promise<object> {
  const res = await fetch(`${baseUrl.replace(/\/$/, "")}/v1/openapi.json`);
  if (!res.ok) throw new Error(`GET /v1/openapi.json: ${res.status}`);
  return (await res.json()) as object;
}

async function main(): Promise<void> {
  const base = process.argv[2] ?? process.env.BASE_URL ?? "http://localhost:3000";
  await writeFile(SCHEMA_FILE, await generateSchemaSource(await fetchDocument(base)));
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)} from ${base}`);
}

if (process.argv[1]?.endsWith(path.join("client", "scripts", "generate.ts"))) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
