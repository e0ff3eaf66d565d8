/**
 * The folder-level dependency rules (.dependency-cruiser.cjs, checked by dependency-cruiser in
 * `npm test`): fed a small tree with a planted back-import, the repository's own rules fail it.
 * Platform importing a context and a context reaching past another's entry each fail; the same
 * import through the entry passes. The real tree is checked, with its known violations, by the
 * "dependency rules" check of scripts/test.mjs.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import type { IViolation } from "dependency-cruiser";

const rules = createRequire(import.meta.url)(path.join(process.cwd(), ".dependency-cruiser.cjs"));
const tree = mkdtempSync(path.join(tmpdir(), "dependency-rules-"));
after(() => rmSync(tree, { recursive: true, force: true }));

/** Writes the files of a planted tree under a fresh folder and returns the rules' violations. */
async function violations(name: string, files: Record<string, string>): Promise<string[]> {
  const base = path.join(tree, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
    writeFileSync(path.join(base, file), text);
  }
  // dependency-cruiser is an ES module only: imported, not required.
  const { cruise } = await import("dependency-cruiser");
  const result = await cruise(["lib"], { validate: true, ruleSet: { forbidden: rules.forbidden }, baseDir: base });
  if (typeof result.output === "string") throw new Error("dependency-cruiser answered text, not a result");
  return result.output.summary.violations.map((v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

const transfers = { "lib/payments/transfers/records.ts": "export const state = 'created';\n" };
const entry = { "lib/payments/index.ts": "export { state } from './transfers/records';\n" };

test("platform importing a context is refused", async () => {
  const found = await violations("back-import", {
    ...transfers,
    "lib/platform/clock.ts": "import { state } from '../payments/transfers/records';\nexport const now = state;\n",
  });
  assert.deepEqual(found, ["platform-imports-no-context: lib/platform/clock.ts -> lib/payments/transfers/records.ts"]);
});

test("a context reaching into another past its entry is refused; through the entry it passes", async () => {
  const deep = await violations("deep", {
    ...transfers,
    ...entry,
    "lib/compliance/screening/hold.ts": "import { state } from '../../payments/transfers/records';\nexport const held = state;\n",
  });
  assert.deepEqual(deep, ["context-through-entry: lib/compliance/screening/hold.ts -> lib/payments/transfers/records.ts"]);
  const throughEntry = await violations("entry", {
    ...transfers,
    ...entry,
    "lib/compliance/screening/hold.ts": "import { state } from '../../payments';\nexport const held = state;\n",
  });
  assert.deepEqual(throughEntry, []);
});

test("inside one context any folder may import another, and contexts may import platform", async () => {
  const found = await violations("inside", {
    ...transfers,
    "lib/platform/clock.ts": "export const now = () => new Date();\n",
    "lib/payments/quotes/create.ts":
      "import { state } from '../transfers/records';\nimport { now } from '../../platform/clock';\nexport const q = [state, now];\n",
  });
  assert.deepEqual(found, []);
});

test("a cycle between two modules is refused", async () => {
  const found = await violations("cycle", {
    "lib/platform/a.ts": "import { b } from './b';\nexport const a = () => b;\n",
    "lib/platform/b.ts": "import { a } from './a';\nexport const b = () => a;\n",
  });
  assert.ok(
    found.some((v) => v.startsWith("no-circular: lib/platform/")),
    found.join("; "),
  );
});
