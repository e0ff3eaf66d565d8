/**
 * How long a customer has to pay (docs/decisions.md "Funding windows per
 * method"). A funding session never outlives its transfer: the deadline shown and enforced is the
 * earlier of the two. A card pays at once, so its session keeps the card's window (spec 2.8's
 * 30 minutes) within the transfer's 120 minutes; a bank transfer takes the banks' business days,
 * so choosing it gives the session, and the transfer with it, the bank transfer's window in
 * business days of the collection account's calendar. Both windows are the configuration
 * version's in force (lib/payments/corridors/funding-terms.ts), else the settings.
 */
import type { CollectionAccount } from "@/lib/platform/config";
import { cardWindowSeconds } from "@/lib/payments/corridors/funding-terms";
import { businessDayFrom, localTime, nextDay, zonedInstant } from "@/lib/payments/delivery/business-calendar";

/** The earlier of the funding session's end and its transfer's: when a payment stops counting. */
export function fundingDeadline(session: { expiresAt: Date }, transfer: { expiresAt: Date }): Date {
  return session.expiresAt.getTime() <= transfer.expiresAt.getTime() ? session.expiresAt : transfer.expiresAt;
}

/** A new session's end: the card's window from now (the version in force's, else FUNDING_TTL_SECONDS), but never after its transfer's. */
export function newSessionExpiry(transfer: { expiresAt: Date }, now: Date): Date {
  const own = new Date(now.getTime() + cardWindowSeconds(now) * 1000);
  return fundingDeadline({ expiresAt: own }, transfer);
}

/**
 * The end of a bank transfer's window chosen at `from`: the end (midnight) of the Nth business
 * day after `from`'s day in the collection account's calendar (its country's weekends and public
 * and bank holidays, in its time zone). A credit counts when its statement is imported, so the
 * default of two covers a payment that takes the usual one business day and the statement of that day.
 */
export function bankTransferDeadline(account: Pick<CollectionAccount, "country" | "timeZone">, from: Date, businessDays: number): Date {
  let day = localTime(from, account.timeZone).day;
  for (let n = 0; n < businessDays; n++) day = businessDayFrom(account.country, nextDay(day));
  return zonedInstant(nextDay(day), "00:00", account.timeZone);
}
