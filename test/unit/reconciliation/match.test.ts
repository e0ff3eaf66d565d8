import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decideMatch, type MatchTarget } from "@/lib/payments/reconciliation/match";

const open: MatchTarget = { transferState: "funding", transferExpired: false, sessionState: "OPEN", sessionExpired: false, due: "102.99", currency: "EUR" };
const eur = (amount: string) => ({ amount, currency: "EUR" });

describe("matching a bank credit to its funding session", () => {
  test("the exact sum in the right currency funds, however it is written", () => {
    assert.deepEqual(decideMatch(eur("102.99"), open), { fund: true, shortfall: null });
    assert.deepEqual(decideMatch(eur("102.990"), open), { fund: true, shortfall: null });
  });

  test("issue 24: short by at most the tolerance funds with the shortfall; by more it is PARTIAL; more is never tolerated", () => {
    assert.deepEqual(decideMatch(eur("102.98"), open, "0.05"), { fund: true, shortfall: "0.01" });
    assert.deepEqual(decideMatch(eur("102.94"), open, "0.05"), { fund: true, shortfall: "0.05" });
    assert.deepEqual(decideMatch(eur("102.93"), open, "0.05"), { fund: false, reason: "PARTIAL" });
    assert.deepEqual(decideMatch(eur("103.00"), open, "0.05"), { fund: false, reason: "OVERPAID" });
  });

  test("no session for the reference: UNMATCHED", () => {
    assert.deepEqual(decideMatch(eur("102.99"), null), { fund: false, reason: "UNMATCHED" });
  });

  test("less is PARTIAL, more is OVERPAID, another currency is WRONG_CURRENCY", () => {
    assert.deepEqual(decideMatch(eur("102.98"), open), { fund: false, reason: "PARTIAL" });
    assert.deepEqual(decideMatch(eur("103"), open), { fund: false, reason: "OVERPAID" });
    assert.deepEqual(decideMatch({ amount: "102.99", currency: "USD" }, open), { fund: false, reason: "WRONG_CURRENCY" });
  });

  test("LATE whenever the transfer no longer waits for this money, before amount or currency", () => {
    const late: Partial<MatchTarget>[] = [
      { transferExpired: true },
      { transferState: "expired" },
      { transferState: "funded" },
      { transferState: "validated" },
      { sessionState: "EXPIRED" },
      { sessionState: "SUCCEEDED" },
      { sessionExpired: true },
    ];
    for (const change of late) {
      assert.deepEqual(decideMatch({ amount: "1", currency: "USD" }, { ...open, ...change }), { fund: false, reason: "LATE" }, JSON.stringify(change));
    }
  });
});
