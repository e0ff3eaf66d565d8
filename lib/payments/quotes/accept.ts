import { and, eq, sql } from "drizzle-orm";
import { preparedOn } from "@/db/prepared";
import type { Tx } from "@/db";
import { beneficiaries, customers, disclosures, partners, quotes, subscriptions } from "@/db/schema";
import { beneficiaryNotFound } from "@/lib/payments/beneficiaries/records";
import { paymentToBeneficiaryCheck } from "../beneficiaries/payment-check";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { corridorOfQuote } from "@/lib/payments/corridors/corridors";
import { recordedVersion, refreshVersions } from "@/lib/payments/corridors/versions";
import { quoteTtlSeconds, type CorridorType } from "@/lib/payments/corridors/payout-methods";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { checkEnvelope } from "@/lib/payments/pricing/envelope";
import { envelopeTermsOfColumns, pricedColumnsOf } from "@/lib/payments/pricing/priced-columns";
import { referenceRates } from "@/lib/payments/pricing/rate-store";
import { limitContextColumns, reservationWithin, standingFrom, usageRows } from "@/lib/payments/limits/usage";
import { insertRegisteredTransfer } from "@/lib/payments/transfers/records";
import { quoteExpired, quoteNotFound } from "./records";
import { verifyPartnerQuote } from "./signing/verify-partner-quote";
import { expectState } from "@/lib/platform/state-machine/define";

const invalid = (failedCheck: string, message: string) => new DomainError("quote.invalid", { message, details: { failedCheck } });

/**
 * The quote (locked), the disclosure its token names (locked), the quote's beneficiary and the
 * customer's limit context with its subscription locked (the per-customer lock of the limits), in
 * one prepared statement. The disclosure is locked in its subquery, so a missing one
 * still answers the quote's own checks first. The subscription's lock is taken here rather than
 * after the checks: one statement less, and the usage sums sent behind this statement start once
 * it holds the lock (lib/payments/limits/usage.ts usageRows). A refused accept rolls back at once.
 */
const acceptRows = (tx: Tx) =>
  preparedOn(tx, "accept_rows", (e) => {
    const disclosure = e
      .select()
      .from(disclosures)
      .where(eq(disclosures.tokenHash, sql.placeholder("tokenHash")))
      .for("update")
      .as("disclosure");
    return e
      .select({
        quote: quotes,
        disclosure: { tokenHash: disclosure.tokenHash, quoteId: disclosure.quoteId, subscriptionId: disclosure.subscriptionId, usedAt: disclosure.usedAt },
        beneficiary: beneficiaries,
        ...limitContextColumns,
      })
      .from(quotes)
      .innerJoin(subscriptions, eq(subscriptions.id, quotes.subscriptionId))
      .innerJoin(customers, eq(customers.id, subscriptions.customerId))
      .innerJoin(partners, eq(partners.id, subscriptions.partnerId))
      .leftJoin(disclosure, sql`true`)
      .leftJoin(beneficiaries, and(eq(beneficiaries.id, quotes.beneficiaryId), eq(beneficiaries.subscriptionId, quotes.subscriptionId)))
      .where(and(eq(quotes.id, sql.placeholder("quoteId")), eq(quotes.subscriptionId, sql.placeholder("subscriptionId"))))
      .for("update", { of: [quotes, subscriptions] })
      .prepare("accept_rows");
  });

/**
 * The quote's beneficiary, locked before the quote and the subscription. The accept
 * updates it at commit (lastUsedAt); the fast-check holds it FOR SHARE and then counts its event on
 * the subscription. Taken after the subscription's lock, the two deadlocked (the journey at 32
 * arrivals/s: 12 of 480 accepts); taken first, the accept waits for the fast-check before it locks
 * the subscription, in the fast-check's own order. NO KEY UPDATE: what its update needs, without
 * blocking the foreign key checks of rows naming it.
 */
const acceptBeneficiaryLocked = (tx: Tx) =>
  preparedOn(tx, "accept_beneficiary_locked", (e) =>
    e
      .select({ id: beneficiaries.id })
      .from(beneficiaries)
      .where(
        eq(
          beneficiaries.id,
          e
            .select({ id: quotes.beneficiaryId })
            .from(quotes)
            .where(and(eq(quotes.id, sql.placeholder("quoteId")), eq(quotes.subscriptionId, sql.placeholder("subscriptionId")))),
        ),
      )
      .for("no key update")
      .prepare("accept_beneficiary_locked"),
  );

/**
 * POST /v1/core/quotes/{id}/accept (spec 4.1 rule 5): needs a served disclosure, re-checks the
 * pricing envelope (and a partner's signature), and creates the transfer in registered with its
 * 120-minute timer. The quote row is locked: two accepts racing with different keys make one transfer.
 * The amount counts against the customer's rolling limits from here (lib/payments/limits/usage.ts).
 */
export async function acceptQuote(
  tx: Tx,
  input: { subscriptionId: string; customerId: string; partnerId: string; quoteId: string; disclosureToken: string; purposeOfTransfer: string; now: Date },
) {
  const { now } = input;
  // One round trip: the beneficiary's lock, the locking read, then the usage sums on a snapshot
  // taken once it holds the subscription's lock (each statement starts when the one before ends).
  const [, [found], usage] = await Promise.all([
    acceptBeneficiaryLocked(tx).execute({ quoteId: input.quoteId, subscriptionId: input.subscriptionId }),
    acceptRows(tx).execute({ quoteId: input.quoteId, subscriptionId: input.subscriptionId, tokenHash: sha256Hex(input.disclosureToken) }),
    usageRows(tx, input.subscriptionId, now),
  ]);
  if (!found) throw quoteNotFound();
  const { quote, disclosure, beneficiary } = found;
  if (quote.acceptedAt) throw invalid("alreadyAccepted", "This quote was already accepted.");
  if (quote.validUntil.getTime() <= now.getTime()) throw quoteExpired(quote, 422);
  if (!disclosure || disclosure.quoteId !== quote.id || disclosure.subscriptionId !== input.subscriptionId || disclosure.usedAt) {
    throw invalid("disclosureToken", "The disclosureToken is unknown, used, or belongs to another quote. Read the disclosure again.");
  }
  if (!beneficiary) throw beneficiaryNotFound();
  await paymentToBeneficiaryCheck(tx, beneficiary, now);

  // The highest version, read in the locking statement: the quote's and the one whose limits are in force are loaded.
  await refreshVersions(tx, Math.max(found.latestConfigurationVersion, recordedVersion(quote.corridorDataVersion)));
  const corridor = corridorOfQuote(quote);
  if (!corridor) throw new DomainError("quote.corridorUnavailable", { message: "This corridor is no longer offered." });
  if (quote.pricingMode === "PARTNER_SIGNED") {
    const [partner] = await tx.select({ jwks: partners.jwks }).from(partners).where(eq(partners.id, input.partnerId));
    await verifyPartnerQuote(quote.signedQuote, { jwks: partner.jwks, now, maxTtlSeconds: quoteTtlSeconds(quote.corridorType as CorridorType, config()) });
  }
  const rates = await referenceRates(tx);
  checkEnvelope(envelopeTermsOfColumns(quote), corridor, now, rates);
  // Last, after every other check: what the transfer counts against the customer's windows.
  const counted = reservationWithin(standingFrom(found, usage, rates, now), {
    originAmount: quote.originAmount,
    originCurrency: quote.originCurrency,
    rates,
    now,
  });

  const expiresAt = addSeconds(now, config().TRANSFER_TTL_SECONDS);
  const transfer = await insertRegisteredTransfer(
    tx,
    {
      partnerId: input.partnerId,
      subscriptionId: input.subscriptionId,
      customerId: input.customerId,
      quoteId: quote.id,
      beneficiaryId: beneficiary.id,
      ...pricedColumnsOf(quote),
      corridor: quote.corridor,
      configurationVersion: recordedVersion(quote.corridorDataVersion),
      payoutMethod: quote.payoutMethod,
      purposeOfTransfer: input.purposeOfTransfer,
      expiresAt,
      ...counted,
      createdAt: now,
    },
    now,
  );
  const effects = effectsOf(tx);
  await effects.atCommit(
    tx.update(disclosures).set({ usedAt: now }).where(eq(disclosures.tokenHash, disclosure.tokenHash)),
    tx.update(quotes).set({ acceptedAt: now, transferId: transfer.id }).where(eq(quotes.id, quote.id)),
    tx.update(beneficiaries).set({ lastUsedAt: now }).where(eq(beneficiaries.id, beneficiary.id)),
  );
  await effects.jobs.schedule("transfers.expire", { transferId: transfer.id }, { runAt: expiresAt, dedupeKey: dedupeKey("transfers.expire", transfer.id) });
  return { quoteId: quote.id, transferId: transfer.id, transferStatus: expectState(transfer, "registered").state };
}
