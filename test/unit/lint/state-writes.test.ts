/**
 * The state-writes lint rule (issue 21 item 3, scripts/lint/state-writes.mjs): fed offending
 * snippets it fails, fed the machine's own module or a write of other columns it passes; and the
 * repository's ESLint configuration runs it on lib/.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { ESLint, Linter } from "eslint";
// @ts-expect-error: a plain ES module with no type declarations
import { remitPlugin, STATE_COLUMNS } from "../../../scripts/lint/state-writes.mjs";

const cwd = process.cwd();

function lint(code: string, file: string) {
  const linter = new Linter({ configType: "flat", cwd });
  return linter.verify(
    code,
    [
      {
        files: ["**/*.ts"],
        languageOptions: { ecmaVersion: 2022, sourceType: "module" },
        plugins: { remit: remitPlugin },
        rules: { "remit/state-writes": "error" },
      },
    ],
    path.join(cwd, file),
  );
}

const OFFENDING = `
export async function sneak(tx, id) {
  await tx.update(transfers).set({ state: "paid" }).where(eq(transfers.id, id));
}`;

test("a state column set outside its machine's module fails", () => {
  const messages = lint(OFFENDING, "lib/transfers/sneak.ts");
  assert.equal(messages.length, 1, JSON.stringify(messages));
  assert.equal(messages[0].ruleId, "remit/state-writes");
  assert.match(messages[0].message, /transfers\.state is a machine's state: write it through lib\/transfers\/records\.ts/);
});

test("the same write in the machine's module passes", () => {
  assert.deepEqual(lint(OFFENDING, "lib/transfers/records.ts"), []);
});

test("inserts, status columns, a const object and a spread are seen; other columns pass", () => {
  const cases: [string, number][] = [
    [`tx.insert(refunds).values({ id, state: "COMPLETED" });`, 1],
    [`db.update(schema.customers).set({ status: "BLOCKED" });`, 1],
    [`const set = { state: "EXPIRED" }; tx.update(kycSessions).set(set);`, 1],
    [`tx.update(networkCancellations).set({ ...changes });`, 1],
    [`tx.insert(registrations).values([{ id: "a" }, { id: "b", state: "VERIFIED" }]);`, 1],
    [`tx.update(transfers).set({ rejectionReason: "X" });`, 0],
    [`const set = { submittedAt: now }; tx.update(transfers).set(set);`, 0],
    [`tx.update(jobs).set({ state: "done" });`, 0],
  ];
  for (const [code, errors] of cases) assert.equal(lint(code, "lib/somewhere/else.ts").length, errors, code);
});

test("every listed module exists, and the repository's ESLint configuration applies the rule to lib/", async () => {
  const { existsSync } = await import("node:fs");
  for (const { modules } of Object.values(STATE_COLUMNS) as { modules: string[] }[]) {
    for (const m of modules) assert.ok(existsSync(path.join(cwd, m)), m);
  }
  const eslint = new ESLint({ cwd });
  const config = await eslint.calculateConfigForFile(path.join(cwd, "lib/transfers/network.ts"));
  assert.equal(config.rules?.["remit/state-writes"]?.[0], 2);
  const [result] = await eslint.lintText(OFFENDING, { filePath: path.join(cwd, "lib/transfers/sneak.ts") });
  assert.ok(
    result.messages.some((m) => m.ruleId === "remit/state-writes"),
    JSON.stringify(result.messages),
  );
});
