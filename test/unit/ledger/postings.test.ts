/**
 * The postings table (lib/payments/transfers/postings.ts) checked against the transfer machine in one
 * place: every state change that moves money (the money's place before differs from after) has
 * exactly one rule, no other change has one, every rule balances per currency, and each rule
 * moves the transfer's accounts from what the old place holds to what the new place holds.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkLines, FUNDING_SOURCES, type AccountCode } from "@/lib/finance/ledger";
import { linesFor, POSTING_RULES, postingRuleFor, REFUND_PAID_RULE, type TransferAmounts } from "@/lib/payments/transfers/postings";
import { HOLDABLE, TRANSFER_STATES, TRANSFER_TRIGGERS, transferMachine, type TransferState } from "@/lib/payments/transfers/state-machine";

type Place = "none" | "customerFunds" | "inFlight" | "paidOut" | "refundDue" | "blocked";

/** Where the customer's money is, written independently of the postings table. */
function place(state: TransferState, movedFrom: Place, trigger?: string): Place {
  // A confirmed sanctions match blocks the money received (a house account, not the transfer's).
  if (trigger === "compliance.block") return movedFrom === "none" ? "none" : "blocked";
  if (state === "funded") return "customerFunds";
  if (state === "topay" || state === "reqpay") return "inFlight";
  if (state === "paid") return "paidOut";
  if (state === "canceled" || state === "rejected") return movedFrom === "none" ? "none" : "refundDue";
  return "none"; // before funding, aborted, expired
}

const amounts: TransferAmounts = {
  originCurrency: "EUR",
  destinationCurrency: "MXN",
  total: 10399n,
  principalFee: 299n,
  partnerFee: 100n,
  origin: 10000n,
  destination: 187550n,
};

/** The balances (debit - credit) of the transfer's own accounts at each place. */
const HOLDS: Record<Place, Partial<Record<AccountCode, bigint>>> = {
  none: {},
  customerFunds: { "transfer:customer-funds": -amounts.total },
  inFlight: { "transfer:payout-in-flight": -amounts.destination },
  paidOut: {},
  refundDue: { "transfer:refund-due": -amounts.total },
  blocked: {},
};

function transferDeltas(lines: ReturnType<typeof linesFor>) {
  const d: Partial<Record<AccountCode, bigint>> = {};
  for (const line of lines) {
    const l: { account: AccountCode; debit?: bigint; credit?: bigint } = line;
    if (l.account.startsWith("transfer:")) d[l.account] = (d[l.account] ?? 0n) + (l.debit ?? 0n) - (l.credit ?? 0n);
  }
  for (const k of Object.keys(d) as AccountCode[]) if (d[k] === 0n) delete d[k];
  return d;
}

function expectedDelta(from: Place, to: Place) {
  const d: Partial<Record<AccountCode, bigint>> = {};
  for (const [k, v] of Object.entries(HOLDS[to])) d[k as AccountCode] = (d[k as AccountCode] ?? 0n) + v;
  for (const [k, v] of Object.entries(HOLDS[from])) d[k as AccountCode] = (d[k as AccountCode] ?? 0n) - v;
  for (const k of Object.keys(d) as AccountCode[]) if (d[k] === 0n) delete d[k];
  return d;
}

test("every money-moving state change has exactly one balanced rule that moves the money where the new state holds it", () => {
  const used = new Set<unknown>();
  let moving = 0;
  for (const state of TRANSFER_STATES) {
    for (const trigger of TRANSFER_TRIGGERS) {
      for (const prior of state === "spended" ? HOLDABLE : [undefined]) {
        const ctx = prior ? { prior } : {};
        if (!transferMachine.can(state, trigger, ctx)) continue;
        const step = transferMachine.next(state, trigger, ctx);
        if (!step.changed) continue;
        const moneyState = state === "spended" ? prior! : state;
        const nextMoneyState = step.to === "spended" ? state : step.to;
        const from = place(moneyState, "none");
        const to = place(nextMoneyState, from, trigger);
        const rule = postingRuleFor(trigger, moneyState, step.to);
        const label = `${state}${prior ? `(${prior})` : ""} --${trigger}--> ${step.to}`;
        if (from === to) {
          assert.equal(rule, undefined, `${label} moves no money but has a rule`);
          continue;
        }
        moving++;
        assert.ok(rule, `${label} moves money (${from} → ${to}) but has no rule`);
        assert.equal(POSTING_RULES.filter((r) => r.trigger === trigger && r.from.includes(moneyState) && r.to === step.to).length, 1, label);
        used.add(rule);
        for (const source of FUNDING_SOURCES) {
          const lines = linesFor(rule.legs, amounts, source, "trf_1", "ptn_1");
          checkLines({ lines, sourceKey: label }); // throws when unbalanced in a currency
          assert.deepEqual(transferDeltas(lines), expectedDelta(from, to), label);
        }
      }
    }
  }
  assert.ok(moving >= 10, `only ${moving} money-moving changes found`);
  assert.equal(used.size, POSTING_RULES.length, "a rule no state change uses");
});

test("a funding entry debits its funding source; the refund pays back from the cash account the money sits in", () => {
  const rule = postingRuleFor("funding.succeeded", "funding", "funded")!;
  const expectations = { "cash:card-clearing": "cash:card-clearing", "cash:collection": "cash:collection", "suspense:unallocated": "cash:collection" } as const;
  for (const source of FUNDING_SOURCES) {
    const funded = linesFor(rule.legs, amounts, source, "trf_1", "ptn_1");
    assert.deepEqual(funded[0], { account: source, currency: "EUR", transferId: "trf_1", partnerId: "ptn_1", debit: 10399n });
    const refund = linesFor(REFUND_PAID_RULE.legs, amounts, source, "trf_1", "ptn_1");
    checkLines({ lines: refund, sourceKey: "refund" });
    assert.deepEqual(transferDeltas(refund), expectedDelta("refundDue", "none"));
    assert.deepEqual(refund[1], { account: expectations[source], currency: "EUR", transferId: "trf_1", partnerId: "ptn_1", credit: 10399n });
  }
});

test("handing to the payout bank earns our own fee and owes the partner its fee (issue 24); a returned payout reverses both", () => {
  const sent = linesFor(postingRuleFor("network.toPay", "funded", "topay")!.legs, amounts, "cash:card-clearing", "trf_1", "ptn_1");
  assert.deepEqual(
    sent.filter((l) => l.account === "revenue:fees" || l.account === "payable:partner-fees"),
    [
      { account: "revenue:fees", currency: "EUR", transferId: "trf_1", partnerId: "ptn_1", credit: 299n },
      { account: "payable:partner-fees", currency: "EUR", transferId: "trf_1", partnerId: "ptn_1", credit: 100n },
    ],
  );
  const returned = linesFor(postingRuleFor("network.rejected", "topay", "rejected")!.legs, amounts, "cash:card-clearing", "trf_1", "ptn_1");
  const fees = returned.filter((l) => l.account === "revenue:fees" || l.account === "payable:partner-fees");
  assert.deepEqual(
    fees.map((l) => [l.account, "debit" in l ? l.debit : undefined]),
    [
      ["revenue:fees", 299n],
      ["payable:partner-fees", 100n],
    ],
  );
});
