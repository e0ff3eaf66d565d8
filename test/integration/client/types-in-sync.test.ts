/**
 * The client's generated types (packages/client/src/schema.ts) match the live OpenAPI document:
 * regenerated here with openapi-typescript into a temporary file and compared byte for byte.
 * On failure run `npm run client:generate -- <base URL of a server built from this tree>`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fetchDocument, generateSchemaSource, SCHEMA_FILE } from "../../../packages/client/scripts/generate";
import { BASE_URL } from "../support";

test("packages/client/src/schema.ts is what openapi-typescript makes of the live /v1/openapi.json", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "client-types-"));
  try {
    const fresh = path.join(dir, "schema.ts");
    writeFileSync(fresh, await generateSchemaSource(await fetchDocument(BASE_URL)));
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    const regenerated = readFileSync(fresh, "utf8");
    assert.ok(regenerated.includes('"/v1/core/events"'), "the document lists the events API");
    assert.ok(committed === regenerated, `packages/client/src/schema.ts is out of date with the OpenAPI document: run npm run client:generate -- ${BASE_URL}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
