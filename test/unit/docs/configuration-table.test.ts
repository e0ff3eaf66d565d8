import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { loadConfig, SETTINGS } from "@/lib/platform/config";
import { PROVIDERS, PROVIDER_KINDS } from "@/lib/payments/providers";

/**
 * README's configuration table states every setting lib/platform/config reads, each in
 * one row (SCREENING_PROVIDER was listed twice, with two defaults), provider rows give the true
 * sandbox default, and no doc still says the money rails have no real implementation.
 */
const ROOT = process.cwd();
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
const rows = table.split("\n").filter((l) => l.startsWith("| `"));
const namedIn = (row: string) => [...(row.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);

describe("README's configuration table (issue 20 item 12)", () => {
  it("names every setting of lib/platform/config, each in exactly one row, and nothing else", () => {
    const named = rows.flatMap(namedIn);
    const twice = named.filter((n, i) => named.indexOf(n) !== i);
    assert.deepEqual(twice, [], "settings listed more than once");
    assert.deepEqual(
      SETTINGS.filter((s) => !named.includes(s)),
      [],
      "settings missing from the table",
    );
    assert.deepEqual(
      named.filter((n) => !SETTINGS.includes(n)),
      [],
      "rows for settings lib/platform/config does not read",
    );
  });

  it("a provider row whose default is a single name states the sandbox's actual default", () => {
    const sandbox = loadConfig({}).providers;
    for (const kind of PROVIDER_KINDS) {
      const row = rows.find((r) => namedIn(r).includes(PROVIDERS[kind].setting))!;
      const stated = /^\s*`([a-z0-9-]+)`\s*$/.exec(row.split("|")[2] ?? "")?.[1];
      if (stated) assert.equal(stated, sandbox[kind], `${PROVIDERS[kind].setting}: README says ${stated}`);
    }
  });

  it("no doc says a money rail has no real implementation", () => {
    for (const file of ["README.md", "docs/decisions.md", "docs/architecture.md"]) {
      assert.doesNotMatch(readFileSync(path.join(ROOT, file), "utf8"), /no real implementation/i, file);
    }
  });
});
