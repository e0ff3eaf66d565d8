/**
 * The customer-status gates of spec 3.5, for the cases no API or sandbox hook can reach yet (a
 * CLOSED customer, a suspended or closed partner relationship): enforceGate and checkSession are
 * pure given the status row the pipeline reads with the token, so every gate and status is
 * checked here without a server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CustomerContext } from "@/lib/identity/auth/customer-context";
import { checkSession } from "@/lib/identity/auth/access-tokens";
import { enforceGate, GATES, type GateName } from "@/lib/identity/customers/gating";
import { CUSTOMER_STATUSES, type CustomerStatus } from "@/lib/identity/customers/status-machine";
import { DomainError } from "@/lib/platform/errors";

const now = new Date("2026-11-25T12:00:00Z");
const gates = Object.keys(GATES) as GateName[];

function caller(subscriptionStatus: string): CustomerContext {
  return { sessionId: "ses_1", subscriptionId: "sub_1", customerId: "cus_1", partnerId: "ptn_1", subscriptionStatus };
}
const row = (status: CustomerStatus) => ({ id: "cus_1", status, kycStatus: "COMPLETED", hasProfile: true });

async function refusal(gate: GateName, status: CustomerStatus, subscriptionStatus = "active"): Promise<DomainError | null> {
  try {
    // The preloaded row is what the pipeline passes: no database is read.
    await enforceGate(undefined as never, gate, caller(subscriptionStatus), row(status));
    return null;
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    return err;
  }
}

test("a CLOSED customer is refused by every gate: 403 customer.statusBlocking, contact_support", async () => {
  for (const gate of gates) {
    const err = await refusal(gate, "CLOSED");
    assert.ok(err, `${gate} let a CLOSED customer through`);
    assert.equal(err.code, "customer.statusBlocking", gate);
    assert.equal(err.status, 403, gate);
    assert.equal(err.remediation, "contact_support", gate);
    assert.deepEqual(err.details, { currentStatus: "CLOSED", remediationHint: "contact_support" }, gate);
  }
});

test("every gate admits exactly its permitted statuses (an active relationship)", async () => {
  for (const gate of gates) {
    for (const status of CUSTOMER_STATUSES) {
      const err = await refusal(gate, status);
      const permitted = (GATES[gate].permitted as readonly string[]).includes(status);
      assert.equal(err === null, permitted, `${gate} × ${status}: ${err?.code ?? "admitted"}`);
    }
  }
});

test("a suspended relationship (spended): onboarding and reads stay open, money movement is 403 subscription.spended", async () => {
  for (const gate of gates) {
    const err = await refusal(gate, "VALID", "spended");
    if (GATES[gate].moneyMovement) {
      assert.equal(err?.code, "subscription.spended", gate);
      assert.equal(err?.status, 403, gate);
    } else {
      assert.equal(err, null, `${gate} refused a suspended relationship: ${err?.code}`);
    }
  }
  // Onboarding, in particular, needs no active relationship (spec 3.5).
  assert.equal(await refusal("onboarding", "PENDING", "spended"), null);
});

test("a closed relationship: every customer-token route is refused before its gate with 403 subscription.closed", () => {
  const session = {
    sessionId: "ses_1",
    state: "active",
    partnerId: "ptn_1",
    accessExpiresAt: new Date(now.getTime() + 60_000),
    subscriptionId: "sub_1",
    customerId: "cus_1",
  };
  assert.equal(checkSession({ ...session, subscriptionStatus: "active" }, "ptn_1", now).customerId, "cus_1");
  assert.throws(
    () => checkSession({ ...session, subscriptionStatus: "closed" }, "ptn_1", now),
    (err: unknown) => err instanceof DomainError && err.code === "subscription.closed" && err.status === 403 && err.remediation === "contact_support",
  );
});
