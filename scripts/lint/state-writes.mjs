/**
 * ESLint rule "remit/state-writes" (issue 21 item 3): a state column is written only by the module
 * that moves it through its machine (lib/state-machine). STATE_COLUMNS lists, per drizzle table
 * (its variable in db/schema), the state column and the modules allowed to write it. The rule
 * reports, anywhere else, `.update(table).set({...})` and `.insert(table).values({...})` that name
 * the column, and any such write whose columns it cannot see (a variable or a spread).
 * An ESLint rule rather than a script: it runs in the lint stage and in editors with no new
 * stage, and ESLint's Linter lets a test feed it a snippet (test/unit/lint/state-writes.test.ts).
 */

/** table variable → { column (property name), modules (repository paths) }. */
export const STATE_COLUMNS = {
  transfers: { column: "state", modules: ["lib/transfers/records.ts"] },
  fundingSessions: { column: "state", modules: ["lib/transfers/funding.ts", "lib/transfers/funding-session-expiry.ts"] },
  refunds: { column: "state", modules: ["lib/transfers/refunds.ts"] },
  networkCancellations: { column: "state", modules: ["lib/transfers/network-cancellations.ts"] },
  beneficiaries: { column: "state", modules: ["lib/beneficiaries/records.ts", "lib/beneficiaries/manage.ts"] },
  customers: { column: "status", modules: ["lib/customers/status-change.ts", "lib/customers/open-subscription.ts"] },
  kycSessions: { column: "state", modules: ["lib/kyc/outcome.ts", "lib/kyc/sessions.ts"] },
  sessions: { column: "state", modules: ["lib/auth/tokens.ts"] },
  registrations: { column: "state", modules: ["lib/auth/registration.ts"] },
  bankCredits: { column: "state", modules: ["lib/reconciliation/import.ts", "lib/reconciliation/resolve.ts"] },
  screeningCases: { column: "state", modules: ["lib/screening-cases/cases.ts"] },
  complianceCases: { column: "state", modules: ["lib/cases/cases.ts"] },
  proposals: { column: "state", modules: ["lib/dual-control/proposals.ts"] },
  monitoringRuleSets: { column: "state", modules: ["lib/monitoring/rule-sets.ts"] },
  payoutFileItems: { column: "state", modules: ["lib/payouts/attempts.ts", "lib/payouts/generate.ts"] },
  ledgerPeriods: { column: "state", modules: ["lib/books/periods.ts"] },
  manualJournals: { column: "state", modules: ["lib/books/journals.ts"] },
  statementBalances: { column: "state", modules: ["lib/books/bank-reconciliation.ts"] },
  suspiciousActivityReports: { column: "status", modules: ["lib/cases/reports.ts"] },
  claims: { column: "state", modules: ["lib/claims/claims.ts"] },
  claimRefunds: { column: "state", modules: ["lib/claims/claim-refunds.ts"] },
};

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

export const stateWritesRule = {
  meta: {
    type: "problem",
    docs: { description: "A state column is written only by its machine's module (lib/state-machine, issue 21)." },
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
        if (!entry || entry.modules.includes(relative)) return;
        const found = columnIn(node.arguments[0], entry.column, context.sourceCode.getScope(node));
        if (found === "absent") return;
        context.report({ node, messageId: found, data: { table, column: entry.column, modules: entry.modules.join(" or ") } });
      },
    };
  },
};

export const remitPlugin = { rules: { "state-writes": stateWritesRule } };
