/**
 * Refund files (docs/decisions.md "Refunds paid by a pain.001 refund file"): a
 * refund of a transfer funded by bank transfer goes back to the account the money came from, the
 * payer's IBAN kept (encrypted) from the camt.053 credit that funded it, in a pain.001 credit
 * transfer from the collection account, built with the payouts' builder (./pain001.ts) rather than
 * keyed by hand. Its own file and table (refund_files): payout files are per payout bank and
 * carry the payout attempts' machine; a refund file carries refunds.
 *
 * Putting a refund in a file moves it PENDING → PROCESSING (refund machine, provider.submitted);
 * the operator records it paid with the bank's reference when the statement shows the debit
 * (operator.paid, as before), or failed (a FAILED refund retried is PENDING again and goes into
 * the next file).
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { bankCredits, refundFiles, refunds, transfers } from "@/db/schema";
import { config, type CollectionAccount } from "@/lib/platform/config";
import { businessDayAt } from "@/lib/payments/delivery/business-calendar";
import type { PayoutBank } from "@/lib/platform/config/payout-banks";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { DomainError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/log";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal } from "@/lib/platform/money/decimal";
import { collectionAccountFor } from "@/lib/payments/corridors/funding-terms";
import { refreshVersions } from "@/lib/payments/corridors/versions";
import { lockTransfer, type TransferRow } from "@/lib/payments/transfers/records";
import { lockRefund, moveRefund } from "@/lib/payments/transfers/refunds";
import { buildPain001, controlSum, type CreditTransfer, type PaymentInformation } from "./pain001";

export interface GeneratedRefundFile {
  id: string;
  currency: string;
  transactionCount: number;
  controlSum: string;
  fileName: string;
  xml: string;
  /** The refunds it pays (their transfers). */
  transferIds: string[];
}

/** The funding sources of a transfer paid by bank transfer (matched at import, or by an operator from suspense). */
const BANK_FUNDED = ["cash:collection", "suspense:unallocated"] as const;
/** The credit that funded a transfer (an over-payment's excess is returned apart). */
const FUNDING_CREDIT_STATES = ["MATCHED", "EXCESS"] as const;

/** Where a bank-funded transfer's refund goes: the payer of the credit that funded it, when the statement named an IBAN. */
async function payerOf(tx: Executor, transferId: string): Promise<{ name: string; iban: string } | null> {
  const [credit] = await tx
    .select({ id: bankCredits.id, name: bankCredits.payerName, encrypted: bankCredits.payerAccountEncrypted })
    .from(bankCredits)
    .where(and(eq(bankCredits.transferId, transferId), inArray(bankCredits.state, [...FUNDING_CREDIT_STATES]), isNotNull(bankCredits.payerAccountEncrypted)))
    .orderBy(asc(bankCredits.createdAt), asc(bankCredits.id))
    .limit(1);
  if (!credit?.encrypted || !credit.name) return null;
  return { name: credit.name, iban: (await destinationCipher(tx)).decrypt(credit.encrypted, credit.id) };
}

/** The collection account as the builder's debtor: we pay the refunds from it, and bear the charges (DEBT). */
function collectionAccount() {
  const account = config().collectionAccount;
  if (!account)
    throw new DomainError("internal.unavailable", { message: "No collection account is configured (COLLECTION_ACCOUNT_IBAN): no refund file can be made." });
  return account;
}

function collectionDebtor(account: CollectionAccount): PayoutBank {
  return {
    id: "collection",
    name: account.name,
    bic: account.bic,
    debtorIban: account.iban,
    debtorName: account.name,
    currencies: account.currencies,
    chargeBearer: "DEBT",
  };
}

/**
 * Puts every PENDING refund of a bank-funded transfer whose payer's account is known into a
 * pain.001 refund file, one per currency, in the caller's transaction. A refund whose payer is not
 * known (a statement without the payer's IBAN) stays on the Refunds page for a payment by hand.
 */
export async function generateRefundFiles(tx: Tx, input: { now: Date }): Promise<GeneratedRefundFile[]> {
  const { now } = input;
  const candidates = await tx
    .select({ transferId: refunds.transferId })
    .from(refunds)
    .innerJoin(transfers, eq(transfers.id, refunds.transferId))
    .where(and(eq(refunds.state, "PENDING"), isNull(refunds.refundFileId), inArray(transfers.fundedFrom, [...BANK_FUNDED])))
    .orderBy(asc(refunds.transferId))
    .limit(1000);
  const byCurrency = new Map<string, { transfer: TransferRow; credit: CreditTransfer }[]>();
  for (const { transferId } of candidates) {
    // The lock order of every transfer write: the transfer, then its refund.
    const transfer = await lockTransfer(tx, transferId);
    const refund = transfer && (await lockRefund(tx, transferId));
    if (!transfer || !refund || refund.state !== "PENDING" || refund.refundFileId) continue;
    const payer = await payerOf(tx, transferId);
    if (!payer) continue;
    const currency = transfer.originCurrency;
    const amount = new Decimal(refund.amount ?? transfer.totalCustomerCost).toFixed(minorUnitExponent(currency));
    const credit: CreditTransfer = {
      endToEndId: refund.id,
      amount,
      creditorName: payer.name,
      creditorCountry: payer.iban.slice(0, 2),
      creditorAccount: { iban: payer.iban },
    };
    byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), { transfer, credit }]);
  }
  if (byCurrency.size === 0) return [];
  await refreshVersions(tx);
  const cipher = await destinationCipher(tx);
  const files: GeneratedRefundFile[] = [];
  for (const [currency, items] of byCurrency) {
    // The account in force that collects the currency (the configuration version's, else the setting's).
    const account = collectionAccountFor(currency, now) ?? collectionAccount();
    const debtor = collectionDebtor(account);
    // The collection account's business day, as for payout files: a refund file made on a weekend or a holiday executes on the next one.
    const executionDate = businessDayAt(account, now);
    const id = newId("rff");
    const credits = items.map((i) => i.credit);
    const payment: PaymentInformation = { id, bank: debtor, currency, executionDate, transfers: credits };
    const xml = buildPain001({ messageId: id, createdAt: now, initiatingParty: debtor.debtorName, payments: [payment] });
    const file = {
      id,
      currency,
      transactionCount: credits.length,
      controlSum: controlSum(credits.map((c) => c.amount)),
      fileName: `pain.001_refunds_${currency}_${id}.xml`,
      xml,
      transferIds: items.map((i) => i.transfer.id),
    };
    await tx.insert(refundFiles).values({
      id,
      currency,
      transactionCount: file.transactionCount,
      controlSum: file.controlSum,
      xmlEncrypted: cipher.encrypt(xml, id),
      fileName: file.fileName,
      createdAt: now,
    });
    for (const { transfer } of items) {
      await tx.update(refunds).set({ refundFileId: id }).where(eq(refunds.transferId, transfer.id));
      await moveRefund(tx, transfer, "provider.submitted", now);
    }
    logger().info({ refundFileId: id, currency, transactions: file.transactionCount }, "refund file generated");
    files.push(file);
  }
  return files;
}

/** The latest refund files (console Refunds page). */
export async function recentRefundFiles(db: Executor, limit = 20) {
  return db
    .select({
      id: refundFiles.id,
      currency: refundFiles.currency,
      transactionCount: refundFiles.transactionCount,
      controlSum: refundFiles.controlSum,
      createdAt: refundFiles.createdAt,
    })
    .from(refundFiles)
    .orderBy(desc(refundFiles.createdAt), desc(refundFiles.id))
    .limit(limit);
}

/** A stored refund file's XML, decrypted (console download). */
export async function readRefundFile(db: Executor, refundFileId: string) {
  const [row] = await db.select().from(refundFiles).where(eq(refundFiles.id, refundFileId));
  if (!row) return undefined;
  return { row, xml: (await destinationCipher(db)).decrypt(row.xmlEncrypted, row.id) };
}
