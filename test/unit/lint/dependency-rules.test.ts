/**
 * The folder-level dependency rules (.dependency-cruiser.cjs, checked by dependency-cruiser in
 * `npm test`): fed a small tree with a planted back-import, the repository's own rules fail it.
 * Platform importing a context and a context reaching past another's entry each fail; the same
 * import through the entry passes; the interface (lib/interface/) may call a context through its
 * entry and no context may import it. The real tree is checked, with no list of exceptions, by the
 * "dependency rules" check of scripts/test.mjs (the last test here keeps it so).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

test("the interface calls a context through its entry; a context importing the interface, or the interface reaching past an entry, is refused", async () => {
  const contract = "export const contract = { path: '/v1/core/transfers' };\n";
  const found = await violations("interface", {
    ...transfers,
    ...entry,
    "lib/interface/api/transfers.ts": "import { state } from '../../payments';\nexport const states = [state];\n",
    "lib/interface/api/deep.ts": "import { state } from '../../payments/transfers/records';\nexport const deep = state;\n",
    "lib/interface/http/contract.ts": contract,
    "lib/payments/transfers/route.ts": "import { contract } from '../../interface/http/contract';\nexport const c = contract;\n",
    "lib/platform/errors.ts": "import { contract } from '../interface/http/contract';\nexport const e = contract;\n",
  });
  assert.deepEqual(found.sort(), [
    "context-through-entry: lib/interface/api/deep.ts -> lib/payments/transfers/records.ts",
    "no-context-imports-interface: lib/payments/transfers/route.ts -> lib/interface/http/contract.ts",
    "platform-imports-no-context: lib/platform/errors.ts -> lib/interface/http/contract.ts",
  ]);
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

test("npm test checks the real tree with no list of exceptions", () => {
  // A baseline (dependency-cruiser's --ignore-known) would let a planted back-import through. The
  // file stays, empty, so that a command given --ignore-known by habit still runs (and ignores nothing).
  const known = path.join(process.cwd(), ".dependency-cruiser-known-violations.json");
  if (existsSync(known)) assert.deepEqual(JSON.parse(readFileSync(known, "utf8")), []);
  assert.doesNotMatch(readFileSync(path.join(process.cwd(), "scripts/test.mjs"), "utf8"), /--ignore-known/);
});
