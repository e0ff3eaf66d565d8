import { eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { payoutFileItems, payoutFiles } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { businessDayAt } from "@/lib/payments/delivery/business-calendar";
import { refreshVersions } from "@/lib/payments/corridors/versions";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { logger } from "@/lib/platform/log";
import { handToNetwork } from "@/lib/payments/transfers/network";
import { lockLatestAttempt, moveAttempt } from "./attempts";
import { bankCalendar, bankForCurrency, type PayoutBank } from "./banks";
import { payoutAttemptMachine } from "./payout-attempt-state-machine";
import { buildPain001, controlSum, type PaymentInformation } from "./pain001";
import { lockReadyTransfers, type ReadyTransfer } from "./ready-transfers";

export interface GeneratedFile {
  id: string;
  bank: PayoutBank;
  currency: string;
  transactionCount: number;
  controlSum: string;
  fileName: string;
  xml: string;
  payment: PaymentInformation;
}

function groups(ready: ReadyTransfer[]): Map<string, { bank: PayoutBank; currency: string; items: ReadyTransfer[] }> {
  const out = new Map<string, { bank: PayoutBank; currency: string; items: ReadyTransfer[] }>();
  for (const r of ready) {
    const currency = r.transfer.destinationCurrency;
    const bank = bankForCurrency(currency);
    if (!bank) {
      // Stays funded until a bank for its currency is configured; the next run retries.
      logger().warn({ transferId: r.transfer.id, currency }, "no payout bank pays out this currency");
      continue;
    }
    const key = `${bank.id}:${currency}`;
    if (!out.has(key)) out.set(key, { bank, currency, items: [] });
    out.get(key)!.items.push(r);
  }
  return out;
}

/**
 * Puts every transfer ready for payout (optionally one partner's: the sandbox endpoint) into
 * pain.001 files, one per payout bank and currency, and moves them funded → topay (a repaired
 * resend is already topay/reqpay and stays), all in the caller's transaction. Writing to PAYOUT_OUTBOX_DIR is a job that runs after the commit.
 */
export async function generatePayoutFiles(tx: Tx, input: { now: Date; partnerId?: string; transferIds?: string[] }): Promise<GeneratedFile[]> {
  const { now } = input;
  const ready = await lockReadyTransfers(tx, input.partnerId, input.transferIds);
  if (ready.length === 0) return [];
  // The execution dates' calendars are the configuration version in force's (a worker may not have loaded it yet).
  await refreshVersions(tx);
  const cipher = await destinationCipher(tx);
  const files: GeneratedFile[] = [];
  for (const { bank, currency, items } of groups(ready).values()) {
    const id = newId("pof");
    const transfers = items.map((i) => i.credit);
    // ReqdExctnDt: the bank executes on its business days only, so a weekend's or a holiday's file asks for the next one.
    const payment: PaymentInformation = { id, bank, currency, executionDate: businessDayAt(bankCalendar(bank), now), transfers };
    const xml = buildPain001({ messageId: id, createdAt: now, initiatingParty: bank.debtorName, payments: [payment] });
    const file = {
      id,
      bank,
      currency,
      transactionCount: transfers.length,
      controlSum: controlSum(transfers.map((t) => t.amount)),
      fileName: `pain.001_${bank.id}_${currency}_${id}.xml`,
      xml,
      payment,
    };
    await tx.insert(payoutFiles).values({
      id,
      bankId: bank.id,
      currency,
      partnerId: input.partnerId ?? null,
      transactionCount: file.transactionCount,
      controlSum: file.controlSum,
      xmlEncrypted: cipher.encrypt(xml, id),
      fileName: file.fileName,
      createdAt: now,
    });
    // A resend: its repaired attempt is RESENT, and the transfer already with the network stays there.
    for (const i of items.filter((r) => r.repairedItemId)) await moveAttempt(tx, (await lockLatestAttempt(tx, i.transfer.id))!, "file.resent", now);
    const sent = payoutAttemptMachine.next("none", "file.generated").to;
    await tx.insert(payoutFileItems).values(
      items.map((i) => ({
        id: newId("pfi"),
        payoutFileId: id,
        transferId: i.transfer.id,
        amount: i.credit.amount,
        attempt: i.attempt,
        state: sent,
        stateChangedAt: now,
      })),
    );
    // A first file (or a routed failover from funded) hands the transfer to the network; one already there stays.
    for (const i of items.filter((r) => r.transfer.state === "funded")) await handToNetwork(tx, i.transfer, now);
    if (config().PAYOUT_OUTBOX_DIR) await effectsOf(tx).jobs.schedule("payouts.writeFile", { payoutFileId: id }, { runAt: now });
    logger().info({ payoutFileId: id, bankId: bank.id, currency, transactions: file.transactionCount }, "payout file generated");
    files.push(file);
  }
  return files;
}

/** The stored file's XML, decrypted (console download, outbox). */
export async function readPayoutFile(db: Executor, payoutFileId: string) {
  const [row] = await db.select().from(payoutFiles).where(eq(payoutFiles.id, payoutFileId));
  if (!row) return undefined;
  const xml = (await destinationCipher(db)).decrypt(row.xmlEncrypted, row.id);
  return { row, xml };
}
