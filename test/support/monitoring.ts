/**
 * Transfers as monitoring sees them, for the monitoring DB tests: a sender at a partner in a mode,
 * a submitted transfer with a payout method (its destination key as submit computes it), the
 * fast-check run on it, and what it held or passed.
 */
import assert from "node:assert/strict";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, complianceAlerts, customers, monitoringEvaluations, partners, payoutMethods, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { Address } from "@/lib/identity/customers/profile";
import { freshClabe } from "./clabe";
import { insertTestTransfer, newSubscription, TRANSFER_TTL_SECONDS, type Owner } from "./fixtures";

export const HOUR = 3_600_000;
export const ago = (hours: number) => new Date(clock.now().getTime() - hours * HOUR);

export interface TransferSpec {
  amount?: string;
  /** USD (US-MX, the default) or EUR (ES-CO). Both corridors review at 1,000. */
  currency?: "USD" | "EUR";
  /** When it was submitted (default now). */
  at?: Date;
  beneficiaryId?: string;
  /** A new beneficiary created then (default 30 days ago: not new). */
  beneficiaryCreatedAt?: Date;
  clabe?: string;
  fundedThenCancelled?: boolean;
}

/** The helpers on the test file's database (`dbOf`: read when called, so after its `before`). */
export function monitoringHelpers(dbOf: () => Db) {
  /** A sender whose partner is in `mode`. */
  async function sender(mode: "enforce" | "shadow" = "enforce"): Promise<Owner> {
    const owner = await newSubscription(dbOf());
    await dbOf().update(partners).set({ monitoringMode: mode }).where(eq(partners.id, owner.partnerId));
    return owner;
  }

  /**
   * A sender registered the way a customer is: a subscription opened for a login identifier as the
   * customer typed it, a profile submitted with this residence address; then verified (VALID).
   */
  async function registeredSender(input: { identifier: string; address?: Omit<Address, "country" | "city"> & { city?: string } }): Promise<Owner> {
    const { parseIdentifier } = await import("@/lib/identity/auth/identifiers");
    const { openSubscription } = await import("@/lib/identity/customers/open-subscription");
    const { submitProfile } = await import("@/lib/identity/customers/profile");
    const now = clock.now();
    const partnerId = newId("partner_test");
    await dbOf()
      .insert(partners)
      .values({ id: partnerId, name: `Test ${partnerId}`, monitoringMode: "enforce", createdAt: now, updatedAt: now });
    return dbOf().transaction(async (tx) => {
      const opened = await openSubscription(tx, { partnerId, identifier: parseIdentifier(input.identifier), passwordHash: "x", now });
      if (input.address) {
        const residenceAddress = { city: "Austin", region: "TX", ...input.address, country: "USA" };
        const profile = { firstName: "Sam", lastName: "Rivera", dateOfBirth: "1990-05-05", nationality: "USA", residenceCountry: "USA", residenceAddress };
        await submitProfile(tx, { customerId: opened.customerId, profile, now });
      }
      await tx.update(customers).set({ status: "VALID", kycStatus: "COMPLETED" }).where(eq(customers.id, opened.customerId));
      return { partnerId, ...opened };
    });
  }

  /** A registered, submitted transfer of `owner` with a CLABE payout method (its destination key as submit computes it). */
  async function transfer(owner: Owner, spec: TransferSpec = {}): Promise<{ transferId: string; beneficiaryId: string }> {
    const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
    const { destinationKey } = await import("@/lib/payments/transfers/destination-key");
    const amount = spec.amount ?? "100.000000";
    const at = spec.at ?? clock.now();
    const eur = spec.currency === "EUR";
    const priced = {
      originAmount: amount,
      originCurrency: eur ? "EUR" : "USD",
      destinationAmount: "1.000000",
      destinationCurrency: eur ? "COP" : "MXN",
      fxRate: "18.750000",
      principalFee: "2.990000",
      partnerFee: "0.000000",
      totalCustomerCost: amount,
    };
    const corridor = eur ? "ES-CO" : "US-MX";
    return dbOf().transaction(async (tx) => {
      const expiresAt = new Date(clock.now().getTime() + TRANSFER_TTL_SECONDS * 1000);
      const row = await insertTestTransfer(tx, owner, at, spec.beneficiaryId, { priced, expiresAt });
      const { beneficiaryId } = row;
      if (!spec.beneficiaryId) {
        await tx
          .update(beneficiaries)
          .set({ createdAt: spec.beneficiaryCreatedAt ?? ago(30 * 24) })
          .where(eq(beneficiaries.id, beneficiaryId));
      }
      // A CLABE is 18 digits: a valid account number in ES-CO (6 to 20 digits) too.
      const clabe = spec.clabe ?? freshClabe();
      const methodId = newId("pm");
      await tx.insert(payoutMethods).values({
        id: methodId,
        beneficiaryId,
        methodType: "BANK_TRANSFER",
        corridor,
        destinationIdentifierEncrypted: (await destinationCipher(tx)).encrypt(clabe, methodId),
        destinationIdentifierMasked: `****${clabe.slice(-4)}`,
        destinationKey: await destinationKey(tx, "BANK_TRANSFER", clabe),
        addedAt: at,
      });
      const funded = spec.fundedThenCancelled
        ? { fundedFrom: "customerFunds" as never, cancellation: { cancellationReason: "CUSTOMER_REQUEST", cancelRequestedAt: at.toISOString() } }
        : {};
      await tx
        .update(transfers)
        .set({ payoutMethodId: methodId, submittedAt: at, corridor, ...funded })
        .where(eq(transfers.id, row.id));
      return { transferId: row.id, beneficiaryId };
    });
  }

  /** Runs the fast-check on the transfer; its state after, and the live evaluation recorded. */
  async function fastCheck(transferId: string) {
    const { fastCheck } = await import("@/lib/compliance/fast-check/fast-check-job");
    await dbOf().transaction((tx) => fastCheck.run!(tx, { payload: { transferId }, now: clock.now() } as never));
    const [t] = await dbOf().select().from(transfers).where(eq(transfers.id, transferId));
    const [evaluation] = await dbOf()
      .select()
      .from(monitoringEvaluations)
      .where(and(eq(monitoringEvaluations.transferId, transferId), eq(monitoringEvaluations.run, "live")));
    const alerts = await dbOf().select().from(complianceAlerts).where(eq(complianceAlerts.transferId, transferId));
    return { state: t.state, rejectionReason: t.rejectionReason, evaluation, fired: evaluation.fired.map((f) => f.rule), alerts };
  }

  async function expectHeld(transferId: string, rule: string) {
    const r = await fastCheck(transferId);
    assert.equal(r.state, "onreview", `${rule}: ${JSON.stringify(r.evaluation)}`);
    assert.ok(r.fired.includes(rule), `${rule} fired: ${JSON.stringify(r.evaluation)}`);
    assert.equal(r.evaluation.outcome, "review");
    assert.equal(r.evaluation.mode, "enforce");
    assert.deepEqual(
      r.alerts.map((a) => [a.kind, a.shadow, a.evaluationId]),
      [["MONITORING_REVIEW", false, r.evaluation.id]],
      "the customer's case has the alert",
    );
    return r;
  }

  async function expectPassed(transferId: string, rule: string) {
    const r = await fastCheck(transferId);
    assert.equal(r.state, "validated", `${rule}: ${JSON.stringify(r.evaluation)}`);
    assert.equal(r.fired.includes(rule), false, `${rule} did not fire: ${JSON.stringify(r.evaluation)}`);
    return r;
  }

  return { sender, registeredSender, transfer, fastCheck, expectHeld, expectPassed };
}
