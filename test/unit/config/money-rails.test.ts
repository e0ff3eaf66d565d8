import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Tx } from "@/db";
import { loadConfig } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { isSandboxProvider, providers } from "@/lib/payments/providers";
import { payFromWebview } from "@/lib/payments/transfers/funding-webview";
import { advanceNetwork } from "@/lib/payments/transfers/network";
import type { TransferRow } from "@/lib/payments/transfers/records";
import { productionEnv } from "../../support/production-env";

/**
 * Production money rails: funding and refunds are "none" (the funding page's pay action refuses
 * before touching the database: a transaction that throws on any use proves it; the refund path
 * never schedules the sandbox refund provider); payout is the pain.001 file rail, and the sandbox
 * payout network refuses to move a transfer.
 */
const KEY = Symbol.for("remit.config");
const g = globalThis as Record<symbol, unknown>;
let saved: unknown;
const untouchable = new Proxy({}, { get: () => assert.fail("the database was reached") }) as Tx;
const notConfigured = (e: unknown) => e instanceof DomainError && e.code === "internal.unavailable" && /not configured/.test(e.message);

before(() => {
  saved = g[KEY];
  g[KEY] = loadConfig(productionEnv);
});
after(() => {
  g[KEY] = saved;
});

describe("money rails in production (issue 11 item 1)", () => {
  test("the funding page's pay action answers not configured, never funded", async () => {
    await assert.rejects(payFromWebview(untouchable, "any-token", { method: "BANK_TRANSFER" }, new Date()), notConfigured);
    await assert.rejects(payFromWebview(untouchable, "any-token", { method: "CARD", cardNumber: "4242424242424242" }, new Date()), notConfigured);
  });

  test("the sandbox payout network refuses to move a transfer", async () => {
    await assert.rejects(advanceNetwork(untouchable, { id: "trf_x", state: "funded" } as TransferRow, "topay", new Date()), notConfigured);
  });

  test("funding resolves to none, payout to pain001, refunds to operator: none is sandbox", () => {
    assert.deepEqual([isSandboxProvider("funding"), isSandboxProvider("payout"), isSandboxProvider("refunds")], [false, false, false]);
    assert.deepEqual([providers().payout, providers().refunds], ["pain001", "operator"]);
  });
});
