import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { auditLog, bankCredits, beneficiaries, payoutMethods, quotes } from "@/db/schema";
import { latestScreening } from "@/lib/compliance";
import { holdInfo } from "./holds";
import { transferWithHistory } from "./money";

/**
 * Everything the console's transfer page shows (read-only): the transfer and its history, its
 * beneficiary with the payout method (masked) and latest screening, the bank credits that paid
 * or tried to pay it (reference, payer), the current hold, every operator action on it, and the
 * configuration version it was priced under.
 */
export async function transferView(db: Executor, transferId: string) {
  const found = await transferWithHistory(db, transferId);
  if (!found) return undefined;
  const { t } = found;
  const [beneficiary] = await db.select().from(beneficiaries).where(eq(beneficiaries.id, t.beneficiaryId));
  const [method] = t.payoutMethodId
    ? await db
        .select({ methodType: payoutMethods.methodType, masked: payoutMethods.destinationIdentifierMasked })
        .from(payoutMethods)
        .where(eq(payoutMethods.id, t.payoutMethodId))
    : [];
  const screening = beneficiary ? await latestScreening(db, "beneficiary", beneficiary.id) : undefined;
  const credits = await db.select().from(bankCredits).where(eq(bankCredits.transferId, t.id)).orderBy(asc(bankCredits.createdAt));
  const actions = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "transfer"), eq(auditLog.targetId, t.id)))
    .orderBy(asc(auditLog.at));
  const hold = t.state === "spended" ? (await holdInfo(db, [t.id])).get(t.id) : undefined;
  // The configuration version it was priced under (lib/payments/corridors/versions.ts): its own
  // column, or its quote's for a transfer accepted before transfers recorded it.
  const [priced] =
    t.configurationVersion !== null
      ? [{ version: String(t.configurationVersion) }]
      : await db.select({ version: quotes.corridorDataVersion }).from(quotes).where(eq(quotes.id, t.quoteId));
  return { ...found, beneficiary, method, screening, credits, actions, hold, pricedUnder: priced?.version };
}
