/**
 * The remittance receipt (Regulation E 1005.31(b)(2)): every price component,
 * the date available, the recipient, the rights and the provider's contact, from funding on. The
 * API answers it (GET /v1/core/transfers/{id}/receipt), the hosted page prints it, and the
 * receipt e-mail carries its text and link. No compliance data: only what the customer paid for.
 */
import { eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { beneficiaries, customers, partners, transfers, type ProviderContact } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { customerTimeZone, residenceAddressOf, timeZoneOfAddress } from "@/lib/identity";
import { dateAvailable } from "@/lib/payments/delivery/transfer-delivery";
import { DomainError } from "@/lib/platform/errors";
import { rightsStatement } from "@/lib/platform/i18n/consumer-rights";
import { chooseLanguage, type Language } from "@/lib/platform/i18n/language";
import { fundedAtOf } from "@/lib/payments/transfers/funded-at";
import { transferInScope, type TransferRow } from "@/lib/payments/transfers/records";
import { resolveWebviewToken, webviewTokenInsert } from "@/lib/platform/webviews/tokens";

/** Regulation E 1005.34: the sender may cancel within 30 minutes of payment. */
export const CANCELLATION_RIGHT_SECONDS = 30 * 60;
/** The hosted receipt's link lives this long (it is a capability: anyone with it reads the receipt). */
export const RECEIPT_URL_TTL_SECONDS = 30 * 86_400;
/** We collect no taxes on a transfer: the receipt says so with a zero (1005.31(b)(1)(ii)). */
const NO_TAXES = "0.000000";

export interface ReceiptProvider {
  name: string | null;
  phone: string | null;
  website: string | null;
  regulator: string | null;
}

/** The partner's contact as set in the console; its name alone when none was set. */
export async function providerOf(db: Executor, partnerId: string): Promise<ReceiptProvider> {
  const [p] = await db.select({ name: partners.name, contact: partners.providerContact }).from(partners).where(eq(partners.id, partnerId));
  return providerFrom(p);
}

/** providerOf from the partner's row as read (undefined: no such partner). */
export function providerFrom(p: { name: string; contact: ProviderContact | null } | null | undefined): ReceiptProvider {
  const c: Partial<ProviderContact> = p?.contact ?? {};
  return { name: c.name || p?.name || null, phone: c.phone || null, website: c.website || null, regulator: c.regulator || null };
}

export async function recipientNameOf(db: Executor, beneficiaryId: string): Promise<string> {
  const [b] = await db.select({ first: beneficiaries.firstName, last: beneficiaries.lastName }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId));
  return b ? `${b.first} ${b.last}` : "";
}

/** The receipt's facts (without its URL), its times written in `timeZone`; 409 transfer.stateInvalid before funding. */
export async function receiptFacts(db: Executor, transfer: TransferRow, language: Language, timeZone: string) {
  const funded = await fundedAtOf(db, transfer.id);
  if (!funded) throw notYetFunded(transfer);
  const provider = await providerOf(db, transfer.partnerId);
  return receiptFactsOf(transfer, language, { funded, provider, recipientName: await recipientNameOf(db, transfer.beneficiaryId), timeZone });
}

export const notYetFunded = (transfer: Pick<TransferRow, "state">) =>
  new DomainError("transfer.stateInvalid", {
    message: "The receipt is issued once the transfer is funded.",
    details: { currentState: transfer.state },
  });

/**
 * The receipt's facts from what was read of them: when it was funded, the provider, the
 * recipient's name, the customer's time zone (its text's times; the fields stay UTC).
 */
export function receiptFactsOf(
  transfer: TransferRow,
  language: Language,
  read: { funded: Date; provider: ReceiptProvider; recipientName: string; timeZone: string },
) {
  const { funded, provider } = read;
  const cancellableUntil = addSeconds(funded, CANCELLATION_RIGHT_SECONDS);
  return {
    transferId: transfer.id,
    transferStatus: transfer.state,
    fundedAt: funded.toISOString(),
    originAmount: transfer.originAmount,
    originCurrency: transfer.originCurrency,
    principalFee: transfer.principalFee,
    partnerFee: transfer.partnerFee,
    taxes: NO_TAXES,
    totalCustomerCost: transfer.totalCustomerCost,
    totalCustomerCostCurrency: transfer.originCurrency,
    fxRate: transfer.fxRate,
    destinationAmount: transfer.destinationAmount,
    destinationCurrency: transfer.destinationCurrency,
    dateAvailable: dateAvailable(transfer, funded).toISOString(),
    recipientName: read.recipientName,
    language,
    rightsStatement: rightsStatement(language, cancellableUntil, provider, read.timeZone),
    provider,
    cancellableUntil: cancellableUntil.toISOString(),
  };
}

export type ReceiptFacts = ReturnType<typeof receiptFactsOf>;

/** A fresh link to the hosted receipt page (a webview token bound to the transfer). */
export async function issueReceiptUrl(tx: Tx, transfer: Pick<TransferRow, "id" | "partnerId">, now: Date): Promise<string> {
  const { insert, url } = webviewTokenInsert(tx, {
    kind: "RECEIPT",
    sessionId: transfer.id,
    partnerId: transfer.partnerId,
    ttlSeconds: RECEIPT_URL_TTL_SECONDS,
    now,
  });
  await insert;
  return url;
}

/** GET /v1/core/transfers/{id}/receipt: the facts read without a transaction, then the link issued in one. */
export async function readReceipt(
  db: Executor,
  write: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>,
  input: { subscriptionId: string; transferId: string; acceptLanguage: string | null; now: Date },
) {
  const transfer = await transferInScope(db, input.subscriptionId, input.transferId);
  const [customer] = await db
    .select({ preferred: customers.preferredLanguage, profile: customers.profile })
    .from(customers)
    .where(eq(customers.id, transfer.customerId));
  const language = chooseLanguage(input.acceptLanguage, customer?.preferred);
  const facts = await receiptFacts(db, transfer, language, timeZoneOfAddress(residenceAddressOf(customer?.profile)));
  const receiptUrl = await write((tx) => issueReceiptUrl(tx, transfer, input.now));
  return { language, body: { ...facts, receiptUrl } };
}

/** The hosted receipt page's model: the receipt behind a live token and the zone its times are in, or null (unknown or expired link). */
export async function openReceiptWebview(
  db: Executor,
  token: string,
  language: Language,
  now: Date,
): Promise<{ receipt: ReceiptFacts; timeZone: string } | null> {
  const resolved = await resolveWebviewToken(db, "RECEIPT", token, now);
  if (!resolved) return null;
  const [transfer] = await db.select().from(transfers).where(eq(transfers.id, resolved.sessionId));
  if (!transfer) return null;
  const timeZone = await customerTimeZone(db, transfer.customerId);
  return { receipt: await receiptFacts(db, transfer, language, timeZone), timeZone };
}
