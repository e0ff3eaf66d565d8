/**
 * The state-writes lint rule (scripts/lint/state-writes.mjs): fed offending
 * snippets it fails, fed the machine's own module or a write of other columns it passes; and the
 * repository's ESLint configuration runs it on lib/.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
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

/**
 * The allowances: a table with no machine, or a module that writes a state column without
 * importing its machine ("table module"), and why. Few on purpose: a new one needs a reason.
 */
const WITHOUT_MACHINE: Record<string, string> = {
  // A new customer's first status (PENDING) is written with its subscription, before any profile:
  // the machine's creation trigger is the profile's submission, which keeps the status PENDING.
  "customers lib/identity/customers/open-subscription.ts": "first status at sign-up, before the machine's creation trigger",
  // Delivery bookkeeping of one sender (PENDING, then SENT or FAILED when the job gives up): no
  // trigger reaches it from outside lib/identity/auth/otp-delivery.ts, and nothing reads it but operators.
  otpDeliveries: "one sender's delivery bookkeeping",
  // The platform's own rows: a job's run (the worker), an event's delivery (created pending or
  // undeliverable by the unit of work, settled by the webhook delivery, reset by a replay), a request
  // key's claim (the idempotency store). They carry no business state and no domain module moves them.
  jobs: "the worker's run of a job",
  events: "an event's webhook delivery",
  idempotencyKeys: "the idempotency store's claim",
};

/** The repository modules a module imports (`./x`, `../x`, `@/x`; an entry counts with what it re-exports from its folder). */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file)) return out;
  seen.add(file);
  const source = readFileSync(path.join(cwd, file), "utf8");
  for (const [, spec] of source.matchAll(/from "([.@][^"]*)"/g)) {
    const base = spec.startsWith("@/") ? spec.slice(2) : path.posix.join(path.posix.dirname(file), spec);
    const target = [`${base}.ts`, `${base}/index.ts`].find((f) => existsSync(path.join(cwd, f)));
    if (!target) continue;
    out.add(target);
    if (target.endsWith("/index.ts")) for (const t of importsOf(target, seen)) out.add(t);
  }
  return out;
}

type StateColumns = Record<string, { modules: string[]; machine?: string }>;

/** The writers that skip their machine with no allowance, and the allowances no longer needed. */
function unmachined(columns: StateColumns): { problems: string[]; unused: string[] } {
  const problems: string[] = [];
  const used = new Set<string>();
  for (const [table, { modules, machine }] of Object.entries(columns)) {
    if (!machine) {
      if (WITHOUT_MACHINE[table]) used.add(table);
      else problems.push(`${table} has no machine and no allowance`);
      continue;
    }
    for (const m of modules) {
      if (importsOf(m).has(machine)) continue;
      if (WITHOUT_MACHINE[`${table} ${m}`]) used.add(`${table} ${m}`);
      else problems.push(`${m} writes ${table} without importing ${machine}`);
    }
  }
  return { problems, unused: Object.keys(WITHOUT_MACHINE).filter((k) => !used.has(k)) };
}

test("each state column's writers import its machine, or are an allowance with its reason", () => {
  const columns = STATE_COLUMNS as StateColumns;
  for (const { modules, machine } of Object.values(columns)) {
    for (const m of modules) assert.ok(existsSync(path.join(cwd, m)), m); // a folder ("lib/platform/jobs/") too
    if (machine) assert.match(readFileSync(path.join(cwd, machine), "utf8"), /\bdefineMachine[<(]/, machine);
  }
  assert.deepEqual(unmachined(columns), { problems: [], unused: [] });
});

test("a planted writer that skips its machine, or a table with neither machine nor allowance, fails the check", () => {
  // lib/partners/settings.ts does not import the subscription machine; open-subscription.ts takes it through @/lib/partners.
  const planted: StateColumns = {
    subscriptions: {
      modules: ["lib/partners/settings.ts", "lib/identity/customers/open-subscription.ts"],
      machine: "lib/partners/subscription-status-machine.ts",
    },
    partners: { modules: ["lib/partners/admin.ts"] },
  };
  const { problems } = unmachined(planted);
  assert.deepEqual(problems, [
    "lib/partners/settings.ts writes subscriptions without importing lib/partners/subscription-status-machine.ts",
    "partners has no machine and no allowance",
  ]);
});

test("the repository's ESLint configuration applies the rule to lib/", async () => {
  const eslint = new ESLint({ cwd });
  const config = await eslint.calculateConfigForFile(path.join(cwd, "lib/payments/transfers/network.ts"));
  assert.equal(config.rules?.["remit/state-writes"]?.[0], 2);
  const [result] = await eslint.lintText(OFFENDING, { filePath: path.join(cwd, "lib/payments/transfers/sneak.ts") });
  assert.ok(
    result.messages.some((m) => m.ruleId === "remit/state-writes"),
    JSON.stringify(result.messages),
  );
});
