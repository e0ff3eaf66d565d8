/**
 * ESLint rule "remit/state-writes": a state column is written only by the module
 * that moves it through its machine (lib/platform/state-machine). STATE_COLUMNS lists, per drizzle table
 * (its variable in db/schema), the state column and the modules allowed to write it. The rule
 * reports, anywhere else, `.update(table).set({...})`, `.insert(table).values({...})`, an upsert's
 * `.onConflictDoUpdate({ set })` and a raw sql`update T set ...` / sql`insert into T (...)` that
 * name the column, and any such write whose columns it cannot see (a variable, a spread, a built
 * column list). The platform's rows (jobs, events' delivery, request keys) are listed too: only the
 * worker, the webhook delivery and the idempotency store move them.
 * An ESLint rule rather than a script: it runs in the lint stage and in editors with no new
 * stage, and ESLint's Linter lets a test feed it a snippet (test/unit/lint/state-writes.test.ts).
 */

/**
 * table variable → { column (property name), modules (repository paths), machine (the module that
 * defines its transitions, lib/platform/state-machine; absent for the few rows without one) }.
 * Every listed module of a table with a machine imports that machine (the test checks it), except
 * where the test names the module as an allowance.
 */
export const STATE_COLUMNS = {
  transfers: { column: "state", modules: ["lib/payments/transfers/records.ts"], machine: "lib/payments/transfers/state-machine.ts" },
  fundingSessions: {
    column: "state",
    modules: ["lib/payments/transfers/funding.ts", "lib/payments/transfers/funding-session-expiry.ts"],
    machine: "lib/payments/transfers/funding-session-state-machine.ts",
  },
  refunds: { column: "state", modules: ["lib/payments/transfers/refunds.ts"], machine: "lib/payments/transfers/refund-state-machine.ts" },
  networkCancellations: {
    column: "state",
    modules: ["lib/payments/transfers/network-cancellations.ts"],
    machine: "lib/payments/transfers/network-cancellation-state-machine.ts",
  },
  beneficiaries: {
    column: "state",
    modules: ["lib/payments/beneficiaries/records.ts", "lib/payments/beneficiaries/manage.ts"],
    machine: "lib/payments/beneficiaries/state-machine.ts",
  },
  customers: {
    column: "status",
    modules: ["lib/identity/customers/status-change.ts", "lib/identity/customers/open-subscription.ts"],
    machine: "lib/identity/customers/status-machine.ts",
  },
  kycSessions: {
    column: "state",
    modules: ["lib/identity/kyc/outcome.ts", "lib/identity/kyc/sessions.ts"],
    machine: "lib/identity/kyc/session-state-machine.ts",
  },
  sessions: { column: "state", modules: ["lib/identity/auth/tokens.ts"], machine: "lib/identity/auth/session-state-machine.ts" },
  registrations: { column: "state", modules: ["lib/identity/auth/registration.ts"], machine: "lib/identity/auth/registration-state-machine.ts" },
  bankCredits: {
    column: "state",
    modules: ["lib/payments/reconciliation/import.ts", "lib/payments/reconciliation/resolve.ts"],
    machine: "lib/payments/reconciliation/bank-credit-state-machine.ts",
  },
  screeningCases: { column: "state", modules: ["lib/compliance/screening-cases/cases.ts"], machine: "lib/compliance/screening-cases/state-machine.ts" },
  complianceCases: { column: "state", modules: ["lib/compliance/cases/cases.ts"], machine: "lib/compliance/cases/state-machine.ts" },
  proposals: { column: "state", modules: ["lib/operations/dual-control/proposals.ts"], machine: "lib/operations/dual-control/state-machine.ts" },
  monitoringRuleSets: { column: "state", modules: ["lib/compliance/monitoring/rule-sets.ts"], machine: "lib/compliance/monitoring/state-machine.ts" },
  payoutFileItems: {
    column: "state",
    modules: ["lib/payments/payouts/attempts.ts", "lib/payments/payouts/generate.ts"],
    machine: "lib/payments/payouts/payout-attempt-state-machine.ts",
  },
  payoutProviderAttempts: {
    column: "state",
    modules: ["lib/payments/payouts/routed.ts", "lib/payments/payouts/returned.ts"],
    machine: "lib/payments/payouts/provider-attempt-state-machine.ts",
  },
  ledgerPeriods: { column: "state", modules: ["lib/finance/books/periods.ts"], machine: "lib/finance/books/period-state-machine.ts" },
  manualJournals: { column: "state", modules: ["lib/finance/books/journals.ts"], machine: "lib/finance/books/journal-state-machine.ts" },
  statementBalances: {
    column: "state",
    modules: ["lib/finance/books/bank-reconciliation.ts"],
    machine: "lib/finance/books/statement-balance-state-machine.ts",
  },
  suspiciousActivityReports: { column: "status", modules: ["lib/compliance/cases/reports.ts"], machine: "lib/compliance/cases/report-state-machine.ts" },
  claims: { column: "state", modules: ["lib/payments/claims/claims.ts"], machine: "lib/payments/claims/state-machine.ts" },
  claimRefunds: { column: "state", modules: ["lib/payments/claims/claim-refunds.ts"], machine: "lib/payments/claims/refund-state-machine.ts" },
  subscriptions: {
    column: "status",
    modules: ["lib/identity/customers/open-subscription.ts", "lib/partners/admin.ts"],
    machine: "lib/partners/subscription-status-machine.ts",
  },
  devices: { column: "status", modules: ["lib/identity/devices/registration.ts"], machine: "lib/identity/devices/status-machine.ts" },
  // Rows with no machine: each is written by the one module that owns it, and the test lists
  // why (test/unit/lint/state-writes.test.ts, WITHOUT_MACHINE). A job's run is moved by the worker,
  // an event's delivery by the unit of work (pending or undeliverable at its creation) and the
  // webhook delivery, a request key's claim by the idempotency store, an OTP message by its sender.
  otpDeliveries: { column: "state", modules: ["lib/identity/auth/otp-delivery.ts"] },
  jobs: { column: "state", modules: ["lib/platform/jobs/"] },
  events: { column: "deliveryState", modules: ["lib/platform/unit-of-work.ts", "lib/partners/webhooks/deliver-job.ts", "lib/partners/webhooks/replay.ts"] },
  idempotencyKeys: { column: "state", modules: ["lib/platform/idempotency/store.ts"] },
};

/** A listed module is a file, or every file under a folder (a path ending in "/"). */
const allowed = (modules, file) => modules.some((m) => (m.endsWith("/") ? file.startsWith(m) : file === m));

/** `deliveryState` → `delivery_state`, `bankCredits` → `bank_credits`: the schema's naming. */
const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const BY_SQL_NAME = new Map(Object.keys(STATE_COLUMNS).map((table) => [snake(table), table]));

const WRITE = { set: "update", values: "insert" };

function tableName(node) {
  if (node?.type === "Identifier") return node.name;
  if (node?.type === "MemberExpression" && !node.computed && node.property.type === "Identifier") return node.property.name;
  return undefined;
}

/** A `const x = { ... }` the identifier names (in scope), or the node itself. */
function resolved(node, scope) {
  if (node?.type !== "Identifier") return node;
  for (let s = scope; s; s = s.upper) {
    const variable = s.set.get(node.name);
    if (!variable) continue;
    const def = variable.defs[0];
    const constant = def?.type === "Variable" && def.parent?.kind === "const";
    return constant && def.node.init ? def.node.init : node;
  }
  return node;
}

/** "named" when the object literal has the column, "unknown" when a spread or a variable hides it, else "absent". */
function columnIn(node, column, scope) {
  node = resolved(node, scope);
  if (node?.type === "ArrayExpression") {
    const each = node.elements.map((e) => columnIn(e, column, scope));
    return each.includes("named") ? "named" : each.includes("unknown") ? "unknown" : "absent";
  }
  if (node?.type !== "ObjectExpression") return "unknown";
  let result = "absent";
  for (const p of node.properties) {
    if (p.type === "SpreadElement") result = result === "named" ? result : "unknown";
    else if (!p.computed && ((p.key.type === "Identifier" && p.key.name === column) || (p.key.type === "Literal" && p.key.value === column))) return "named";
  }
  return result;
}

/** The table of `x.insert(table)` at the start of a `.values(...)` chain. */
function insertedTable(node) {
  for (let n = node; n?.type === "CallExpression" && n.callee.type === "MemberExpression"; n = n.callee.object) {
    if (n.callee.property.type === "Identifier" && n.callee.property.name === "insert") return tableName(n.arguments[0]);
  }
  return undefined;
}

/**
 * A raw `update T set ...` or `insert into T (...)` in a sql`` template: the table (an interpolated
 * schema variable or its SQL name) and the columns written, `undefined` when an interpolation
 * builds them (not visible). A rough reading of SQL, enough for how this code writes it.
 */
function rawWrite(quasi) {
  const parts = quasi.quasis.map((q) => q.value.cooked ?? q.value.raw);
  const text = parts.map((p, i) => (i < quasi.expressions.length ? `${p}\u0000${i}\u0000` : p)).join("");
  const m = /\b(update|insert\s+into)\s+(?:\u0000(\d+)\u0000|"?([a-z_]+)"?)\s*([\s\S]*)/i.exec(text);
  if (!m) return undefined;
  const table = m[2] !== undefined ? tableName(quasi.expressions[Number(m[2])]) : BY_SQL_NAME.get(m[3]);
  if (!table || !Object.hasOwn(STATE_COLUMNS, table)) return undefined;
  const rest = m[4];
  // The written columns: an update's assignment targets (left of each `=`), an insert's list.
  const targets =
    m[1].toLowerCase() === "update"
      ? (/^set\b([\s\S]*?)(\bwhere\b|\breturning\b|\bfrom\b|$)/i.exec(rest)?.[1] ?? "").split(",").map((a) => a.split("=")[0])
      : (/^\(([^)]*)\)/.exec(rest)?.[1] ?? "").split(",");
  const names = targets.map((t) => {
    const hole = /\u0000(\d+)\u0000/.exec(t);
    return hole ? columnOf(quasi.expressions[Number(hole[1])]) : t.trim().replace(/"/g, "");
  });
  return { table, columns: names.includes(undefined) ? undefined : names.filter(Boolean) };
}

/** The column an interpolation names: `t.col`, `t.col.name`, `c(t.col)`, `sql.identifier(t.col.name)`; else undefined. */
function columnOf(node) {
  if (node?.type === "CallExpression" && node.arguments.length === 1) return columnOf(node.arguments[0]);
  if (node?.type !== "MemberExpression" || node.computed || node.property.type !== "Identifier") return undefined;
  if (node.property.name === "name" && node.object.type === "MemberExpression") return columnOf(node.object);
  return node.property.name;
}

/** Whether raw SQL's written columns name the state column (its schema or SQL name). */
const columnNamed = (names, column) => (names.some((n) => n === column || n === snake(column)) ? "named" : "absent");

export const stateWritesRule = {
  meta: {
    type: "problem",
    docs: { description: "A state column is written only by its machine's module (lib/platform/state-machine)." },
    schema: [],
    messages: {
      named: "{{table}}.{{column}} is a machine's state: write it through {{modules}}.",
      unknown: "This write to {{table}} may set its state ({{column}}) and its columns are not visible: write it through {{modules}}.",
    },
  },
  create(context) {
    const file = context.filename.replace(/\\/g, "/");
    const cwd = context.cwd.replace(/\\/g, "/");
    const relative = file.startsWith(cwd + "/") ? file.slice(cwd.length + 1) : file;
    const report = (node, messageId, table) =>
      context.report({ node, messageId, data: { table, column: STATE_COLUMNS[table].column, modules: STATE_COLUMNS[table].modules.join(" or ") } });
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier") return;
        const verb = WRITE[callee.property.name];
        const target = callee.object;
        if (!verb || target.type !== "CallExpression" || target.callee.type !== "MemberExpression") return;
        if (target.callee.property.type !== "Identifier" || target.callee.property.name !== verb) return;
        const table = tableName(target.arguments[0]);
        const entry = table && Object.hasOwn(STATE_COLUMNS, table) ? STATE_COLUMNS[table] : undefined;
        if (!entry || allowed(entry.modules, relative)) return;
        const found = columnIn(node.arguments[0], entry.column, context.sourceCode.getScope(node));
        if (found === "absent") return;
        report(node, found, table);
      },
      // insert(table).values(...).onConflictDoUpdate({ set: {...} }): an upsert moves the state too.
      "CallExpression[callee.property.name='onConflictDoUpdate']"(node) {
        const table = insertedTable(node.callee.object);
        const entry = table && Object.hasOwn(STATE_COLUMNS, table) ? STATE_COLUMNS[table] : undefined;
        if (!entry || allowed(entry.modules, relative)) return;
        const options = node.arguments[0];
        const set =
          options?.type === "ObjectExpression" ? options.properties.find((p) => p.type === "Property" && !p.computed && p.key.name === "set") : undefined;
        const found = set ? columnIn(set.value, entry.column, context.sourceCode.getScope(node)) : options ? "unknown" : "absent";
        if (found !== "absent") report(node, found, table);
      },
      // sql`update ${table} set state = ...` and sql`insert into ${table} (...)`: raw SQL is seen too.
      TaggedTemplateExpression(node) {
        if (node.tag.type !== "Identifier" || node.tag.name !== "sql") return;
        const write = rawWrite(node.quasi);
        const entry = write && STATE_COLUMNS[write.table];
        if (!entry || allowed(entry.modules, relative)) return;
        const found = write.columns === undefined ? "unknown" : columnNamed(write.columns, entry.column);
        if (found !== "absent") report(node, found, write.table);
      },
    };
  },
};

export const remitPlugin = { rules: { "state-writes": stateWritesRule } };
