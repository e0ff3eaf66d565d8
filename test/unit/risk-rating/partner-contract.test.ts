/**
 * The partner's contract says nothing of a customer's risk rating: no schema property, parameter,
 * example or description of the OpenAPI document (every Core and Auth operation, and the webhooks,
 * whose bodies are the events) names a rating, a risk or the rating's values as a rating. What the
 * API answers is checked by test/integration/transfers/no-tipping-off.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildOpenApiDocument } from "@/lib/interface/api/openapi";

const FORBIDDEN = new Set(["rating", "ratings", "rated", "risk"]);
const words = (s: string) =>
  s
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);

function walk(value: unknown, at: string, found: string[]): void {
  if (typeof value === "string") {
    for (const w of words(value)) if (FORBIDDEN.has(w)) found.push(`${at}: ${value.slice(0, 120)}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`, found));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      for (const w of words(k)) if (FORBIDDEN.has(w)) found.push(`${at}.${k} (key)`);
      walk(v, `${at}.${k}`, found);
    }
  }
}

test("the partner API's document and its webhooks name no risk rating", () => {
  const doc = buildOpenApiDocument("http://localhost:3000") as { paths: unknown; webhooks: unknown; components?: unknown };
  const found: string[] = [];
  walk({ paths: doc.paths, webhooks: doc.webhooks, components: doc.components }, "openapi", found);
  assert.deepEqual(found, []);
  assert.ok(Object.keys(doc.webhooks as object).length > 0, "the webhooks were walked");
});
