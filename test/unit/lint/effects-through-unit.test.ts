/**
 * Effects only through the unit of work (scripts/lint/effects-through-unit.mjs): fed a domain
 * module that reaches the platform's machinery (the batched-write statement, the queue's inserts)
 * the rule fails, the same code in the platform and the unit's effects pass; the repository's
 * ESLint configuration applies it; and no file outside the platform names the machinery today.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ESLint, Linter } from "eslint";
// @ts-expect-error: a plain ES module with no type declarations
import { effectsThroughUnitRule, inPlatform, MACHINERY, PLATFORM } from "../../../scripts/lint/effects-through-unit.mjs";

const cwd = process.cwd();

function lint(code: string, file: string) {
  const linter = new Linter({ configType: "flat", cwd });
  return linter.verify(
    code,
    [
      {
        files: ["**/*.ts"],
        languageOptions: { ecmaVersion: 2022, sourceType: "module" },
        plugins: { remit: { rules: { "effects-through-unit": effectsThroughUnitRule } } },
        rules: { "remit/effects-through-unit": "error" },
      },
    ],
    path.join(cwd, file),
  );
}

const OFFENDING = `
import { enqueue } from "@/lib/platform/jobs/queue";
import { writeTogether } from "@/db/write-together";
export async function sneak(tx, id) {
  await enqueue(tx, "transfers.expire", { transferId: id }, { runAt: new Date() });
  await writeTogether(tx, []);
}`;

test("a domain module importing or calling the machinery fails, once per import and per call", () => {
  const messages = lint(OFFENDING, "lib/payments/transfers/sneak.ts");
  assert.equal(messages.length, 4, JSON.stringify(messages));
  assert.ok(messages.every((m) => m.ruleId === "remit/effects-through-unit"));
  assert.match(messages[0].message, /^enqueue is the platform's effect machinery: add jobs, events, postings and writes through the unit's effects/);
  const dynamic = `export async function f(tx) { const { insertJob } = await import("@/lib/platform/jobs/queue"); await insertJob(tx, "x", {}, { runAt: new Date() }); }`;
  assert.equal(lint(dynamic, "app/console/actions.ts").length, 1);
  assert.equal(lint(`import { withWrites } from "@/db/write-together";`, "bench/x.ts").length, 1);
});

test("the same code in the platform passes, and so do the unit's effects anywhere", () => {
  for (const file of ["lib/platform/unit-of-work.ts", "lib/platform/jobs/worker.ts", "db/write-together.ts"]) assert.deepEqual(lint(OFFENDING, file), [], file);
  const effects = `
import { effectsOf } from "@/lib/platform/unit-of-work";
export async function ok(tx, id, stream) {
  await effectsOf(tx).jobs.schedule("transfers.expire", { transferId: id }, { runAt: new Date() });
  await effectsOf(tx).writeNow();
  stream.controller.enqueue(new Uint8Array());
}`;
  assert.deepEqual(lint(effects, "lib/payments/transfers/ok.ts"), []);
});

test("the repository's ESLint configuration applies the rule outside the platform", async () => {
  const eslint = new ESLint({ cwd });
  for (const file of ["lib/payments/transfers/network.ts", "app/console/layout.tsx", "scripts/demo.ts", "bench/jobs-drain.ts"]) {
    const config = await eslint.calculateConfigForFile(path.join(cwd, file));
    assert.equal(config.rules?.["remit/effects-through-unit"]?.[0], 2, file);
  }
  const [result] = await eslint.lintText(OFFENDING, { filePath: path.join(cwd, "lib/payments/transfers/sneak.ts") });
  assert.equal(result.messages.filter((m) => m.ruleId === "remit/effects-through-unit").length, 4, JSON.stringify(result.messages));
});

/** Source files of the application (tests may seed jobs with the queue's own functions). */
function sources(dir: string): string[] {
  return readdirSync(path.join(cwd, dir), { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f).split(path.sep).join("/"))
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.includes("node_modules/") && !f.includes("/.next") && statSync(path.join(cwd, f)).isFile());
}

test("no file outside the platform names writeTogether, withWrites, enqueue( or insertJob(", () => {
  assert.deepEqual(PLATFORM, ["lib/platform/", "lib/platform/jobs/", "db/"]);
  const files = ["lib", "app", "components", "scripts", "bench"].flatMap(sources);
  files.push(...readdirSync(cwd).filter((f) => f.endsWith(".ts")));
  assert.ok(files.length > 300, `only ${files.length} files read`);
  // Any call of a name like the machinery's, a method too: the unit's effect that adds a job is
  // `jobs.schedule(`, so `enqueue(` outside the platform is always the queue's (a plain grep agrees).
  const names = new RegExp(`\\b(writeTogether|withWrites)\\b|\\b(${MACHINERY.join("|")})\\(`);
  const found = files
    .filter((f) => !inPlatform(f, cwd) && f !== "scripts/lint/effects-through-unit.mjs")
    .filter((f) => names.test(readFileSync(path.join(cwd, f), "utf8")));
  assert.deepEqual(found, []);
});
