/**
 * The state-writes lint rule (scripts/lint/state-writes.mjs): fed offending
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
  const messages = lint(OFFENDING, "lib/payments/transfers/sneak.ts");
  assert.equal(messages.length, 1, JSON.stringify(messages));
  assert.equal(messages[0].ruleId, "remit/state-writes");
  assert.match(messages[0].message, /transfers\.state is a machine's state: write it through lib\/payments\/transfers\/records\.ts/);
});

test("the same write in the machine's module passes", () => {
  assert.deepEqual(lint(OFFENDING, "lib/payments/transfers/records.ts"), []);
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
    [`tx.update(jobs).set({ state: "done" });`, 1],
    [`tx.update(subscriptions).set({ status: "closed" });`, 1],
    [`tx.update(devices).set({ status: "REVOKED" });`, 1],
    [`tx.update(otpDeliveries).set({ state: "sent" });`, 1],
    [`tx.update(events).set({ deliveryState: "delivered" });`, 1],
    [`tx.update(idempotencyKeys).set({ state: "done" });`, 1],
  ];
  for (const [code, errors] of cases) assert.equal(lint(code, "lib/somewhere/else.ts").length, errors, code);
});

test("an upsert's set and raw SQL updates and inserts are seen", () => {
  const cases: [string, number][] = [
    [`tx.insert(transfers).values({ id }).onConflictDoUpdate({ target: transfers.id, set: { state: "PAID" } });`, 1],
    [`tx.insert(transfers).values({ id }).onConflictDoUpdate({ target: transfers.id, set: changes });`, 1],
    [`tx.insert(transfers).values({ id }).onConflictDoUpdate({ target: transfers.id, set: { updatedAt: now } });`, 0],
    ["tx.execute(sql`update ${transfers} set state = 'PAID' where id = ${id}`);", 1],
    ['tx.execute(sql`update transfers set "state" = ${to}, updated_at = now()`);', 1],
    ["tx.execute(sql`update ${transfers} set ${c(transfers.state)} = ${to}`);", 1],
    ["tx.execute(sql`update ${transfers} set ${columns} = ${to}`);", 1],
    ["tx.execute(sql`update ${events} set delivery_state = 'delivered'`);", 1],
    ["tx.execute(sql`insert into ${claims} (id, state) values (${id}, 'OPEN')`);", 1],
    ["tx.execute(sql`insert into ${claims} (${sql.join(cols, sql`, `)}) values (${id})`);", 1],
    ["tx.execute(sql`update ${transfers} set updated_at = ${now} where state = ${from}`);", 0],
    ["tx.execute(sql`update ${subscriptions} set ${c(subscriptions.eventSequence)} = ${c(subscriptions.eventSequence)} + ${count}`);", 0],
    ["tx.execute(sql`insert into ${claims} (id, kind) values (${id}, ${kind})`);", 0],
    ["tx.execute(sql`select state from ${transfers}`);", 0],
  ];
  for (const [code, errors] of cases) assert.equal(lint(code, "lib/somewhere/else.ts").length, errors, code);
  assert.deepEqual(lint("tx.execute(sql`update ${jobs} set state = 'done'`);", "lib/platform/jobs/worker.ts"), []);
});

test("every listed module exists, and the repository's ESLint configuration applies the rule to lib/", async () => {
  const { existsSync } = await import("node:fs");
  for (const { modules } of Object.values(STATE_COLUMNS) as { modules: string[] }[]) {
    for (const m of modules) assert.ok(existsSync(path.join(cwd, m)), m); // a folder ("lib/platform/jobs/") too
  }
  const eslint = new ESLint({ cwd });
  const config = await eslint.calculateConfigForFile(path.join(cwd, "lib/payments/transfers/network.ts"));
  assert.equal(config.rules?.["remit/state-writes"]?.[0], 2);
  const [result] = await eslint.lintText(OFFENDING, { filePath: path.join(cwd, "lib/payments/transfers/sneak.ts") });
  assert.ok(
    result.messages.some((m) => m.ruleId === "remit/state-writes"),
    JSON.stringify(result.messages),
  );
});
