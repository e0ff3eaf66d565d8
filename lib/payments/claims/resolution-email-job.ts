/**
 * A claim's resolution by e-mail, as the receipt is (lib/payments/receipts/email-job.ts):
 * enqueued with the resolution, through the unit of work's effects (written at its commit), and
 * sent by the job outside any transaction to the customer's e-mail login identifier in their
 * preferred language; in sandbox it goes to the outbox (purpose CLAIM_RESOLUTION). No e-mail
 * identifier (a phone login): nothing is sent; the claim.status.changed event reaches the partner.
 */
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { claims, customers, loginIdentifiers, otpOutbox, subscriptions } from "@/db/schema";
import { claimResolutionMessage } from "@/lib/platform/i18n/claim-messages";
import { LANGUAGES, type Language } from "@/lib/platform/i18n/language";
import { defineJob } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { sendEmail } from "@/lib/platform/notifications/email";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { providers } from "@/lib/payments/providers";
import { backoffWithJitter } from "@/lib/partners";

/** The sandbox outbox's purpose for these messages (they carry no code: the OTP reader skips them). */
export const CLAIM_RESOLUTION_PURPOSE = "CLAIM_RESOLUTION";

/** Called in the resolution's transaction: the job is written with the unit's other effects. */
export async function queueClaimResolutionEmail(tx: Tx, claimId: string, now: Date): Promise<void> {
  await effectsOf(tx).jobs.schedule(
    "claims.emailResolution",
    { claimId },
    { runAt: now, maxAttempts: 6, dedupeKey: dedupeKey("claims.emailResolution", claimId) },
  );
}

export const emailClaimResolution = defineJob({
  kind: "claims.emailResolution",
  schema: z.object({ claimId: z.string() }),
  backoff: (failures) => Math.min(backoffWithJitter(failures), 600),
  perform: async (db: Db, { payload, now }) => {
    const [read] = await db
      .select({
        claim: claims,
        partnerId: subscriptions.partnerId,
        preferred: customers.preferredLanguage,
        email: sql<string | null>`(select ${loginIdentifiers.value} from ${loginIdentifiers}
          where ${loginIdentifiers.subscriptionId} = ${claims.subscriptionId} and ${loginIdentifiers.type} = 'EMAIL' limit 1)`,
      })
      .from(claims)
      .innerJoin(subscriptions, eq(subscriptions.id, claims.subscriptionId))
      .leftJoin(customers, eq(customers.id, subscriptions.customerId))
      .where(eq(claims.id, payload.claimId));
    if (!read || read.email === null || read.claim.state !== "RESOLVED" || !read.claim.outcome) return;
    const { claim, email } = read;
    const outcome = read.claim.outcome;
    const language: Language = (LANGUAGES as readonly string[]).includes(read.preferred ?? "") ? (read.preferred as Language) : "en";
    const message = claimResolutionMessage(
      {
        claimId: claim.id,
        transferId: claim.transferId,
        type: claim.type,
        outcome,
        resolutionAmount: claim.resolutionAmount,
        resolutionCurrency: claim.resolutionCurrency,
        notice: claim.resolutionNotice ?? "",
      },
      language,
    );
    if (providers().otpEmail === "sandbox") {
      await db.insert(otpOutbox).values({
        id: newId("msg"),
        partnerId: read.partnerId,
        identifier: email,
        purpose: CLAIM_RESOLUTION_PURPOSE,
        otp: null,
        message: `${message.subject}\n\n${message.text}`,
        createdAt: now,
      });
      return;
    }
    await sendEmail(email, message);
  },
});
