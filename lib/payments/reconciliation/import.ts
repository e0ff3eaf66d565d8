import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { bankCredits, fundingSessions, transfers } from "@/db/schema";
import { recordClosingBalances } from "@/lib/finance";
import { config } from "@/lib/platform/config";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { validationError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/log";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal } from "@/lib/platform/money/decimal";
import { collectionIbans } from "@/lib/payments/corridors/funding-terms";
import { amountDue } from "@/lib/payments/transfers/bank-transfer";
import { expireIfOverdue } from "@/lib/payments/transfers/deadline";
import { lockFundingSession } from "@/lib/payments/transfers/funding";
import { bankCreditMachine } from "./bank-credit-state-machine";
import { maskAccount, type ParsedStatement, type StatementCredit } from "./camt";
import { fundFromBankCredit } from "./fund";
import { decideMatch, shortfallTolerance, type MatchDecision } from "./match";
import { postCreditReceived, postShortfallWrittenOff } from "./postings";

/** The counts of one import (the sandbox endpoint's answer): credit entries only. */
export interface ImportReport {
  entries: number;
  matched: number;
  unmatched: number;
  duplicates: number;
}

/** The sandbox endpoint's statements are the calling partner's: only its transfers are matched. */
export interface ImportScope {
  partnerId?: string;
}

/**
 * Imports a validated statement (console upload, `npm run statements:import`, the sandbox
 * endpoint: one function). Each credit is recorded once per AcctSvcrRef (a second import counts a
 * duplicate and changes nothing), posted to suspense, then matched: a full match funds its
 * transfer; anything else waits in the operator's "Bank credits" queue.
 */
export async function importStatement(tx: Tx, statement: ParsedStatement, now: Date, scope: ImportScope = {}): Promise<ImportReport> {
  refuseOtherAccounts(statement, await collectionIbans(tx));
  const report: ImportReport = { entries: statement.credits.length, matched: 0, unmatched: 0, duplicates: 0 };
  // The sandbox's statements are partners' play money: only ours are reconciled with the ledger.
  if (!scope.partnerId) await recordClosingBalances(tx, statement.messageId, statement.closingBalances, "cash:collection", now);
  for (const credit of statement.credits) {
    // The sandbox is shared: a partner's entry references cannot collide with another's.
    const scoped = scope.partnerId ? { ...credit, bankReference: `sandbox:${scope.partnerId}:${credit.bankReference}` } : credit;
    const outcome = await importCredit(tx, scoped, statement.messageId, now, scope);
    report[outcome]++;
  }
  logger().info({ statement: statement.messageId, ...report }, "bank statement imported");
  return report;
}

async function importCredit(
  tx: Tx,
  credit: StatementCredit,
  statementId: string,
  now: Date,
  scope: ImportScope,
): Promise<"matched" | "unmatched" | "duplicates"> {
  const id = newId("bcr");
  const { payerIban, ...shown } = credit;
  const inserted = await tx
    .insert(bankCredits)
    .values({
      id,
      ...shown,
      // Kept whole, encrypted, to pay a refund back to it (lib/payments/payouts/refund-file.ts).
      payerAccountEncrypted: payerIban ? (await destinationCipher(tx)).encrypt(payerIban, id) : null,
      statementId,
      // Recorded first (the bank reference dedupes a re-import); the decision below, in the same
      // transaction, replaces this with the machine's state for a credit new to us.
      state: bankCreditMachine.next("none", "import.queued").to,
      createdAt: now,
    })
    .onConflictDoNothing({ target: bankCredits.bankReference })
    .returning({ id: bankCredits.id });
  if (inserted.length === 0) return "duplicates";
  await postCreditReceived(tx, credit, now);

  const [named] = credit.creditorReference
    ? await tx
        .select({ id: fundingSessions.id })
        .from(fundingSessions)
        .innerJoin(transfers, eq(transfers.id, fundingSessions.transferId))
        .where(and(eq(fundingSessions.creditorReference, credit.creditorReference), scope.partnerId ? eq(transfers.partnerId, scope.partnerId) : undefined))
    : [];
  const locked = named && (await lockFundingSession(tx, named.id));
  // The 120-minute guard applies here as at every write: an overdue transfer expires now.
  const transfer = locked && (await expireIfOverdue(tx, locked.transfer, now));
  // Earlier credits with the same reference, queued as partial: this one may top them up.
  const earlier = transfer
    ? await tx
        .select()
        .from(bankCredits)
        .where(
          and(
            eq(bankCredits.transferId, transfer.id),
            eq(bankCredits.state, "QUEUED"),
            eq(bankCredits.reason, "PARTIAL"),
            eq(bankCredits.currency, credit.currency),
          ),
        )
        .orderBy(asc(bankCredits.createdAt), asc(bankCredits.id))
        .for("update")
    : [];
  const target =
    locked && transfer
      ? {
          transferState: transfer.state,
          transferExpired: transfer.expiresAt.getTime() <= now.getTime(),
          sessionState: transfer.state === locked.transfer.state ? locked.session.state : "EXPIRED",
          sessionExpired: locked.session.expiresAt.getTime() <= now.getTime(),
          due: amountDue(transfer),
          currency: transfer.originCurrency,
        }
      : null;
  const tolerance = shortfallTolerance(config().BANK_CREDIT_SHORTFALL_TOLERANCE, credit.currency);
  const decide = (parts: { amount: string }[]): MatchDecision =>
    decideMatch(
      {
        amount: parts.reduce((sum, c) => sum.plus(c.amount), new Decimal(credit.amount)).toFixed(minorUnitExponent(credit.currency)),
        currency: credit.currency,
      },
      target,
      tolerance,
    );
  // With the partial credits before it, this one tops them up; when together they pay too much but
  // this credit alone pays what is due (the customer paid again in full), it funds alone and the
  // partial credits stay in the queue, to be returned.
  let toppedUp = earlier;
  let decision = decide(toppedUp);
  if (!decision.fund && decision.reason === "OVERPAID" && earlier.length > 0) {
    const alone = decide([]);
    if (alone.fund) [decision, toppedUp] = [alone, []];
  }
  if (decision.fund && locked && transfer) {
    await fundFromBankCredit(tx, { session: locked.session, transfer }, now);
    if (decision.shortfall) {
      await postShortfallWrittenOff(
        tx,
        { bankReference: credit.bankReference, transferId: transfer.id, shortfall: decision.shortfall, currency: credit.currency },
        now,
      );
    }
    for (const e of toppedUp) {
      const to = bankCreditMachine.next(e.state, "import.toppedUp").to;
      await tx.update(bankCredits).set({ state: to, appliedAmount: e.amount, reason: null, resolvedAt: now }).where(eq(bankCredits.id, e.id));
    }
    const state = bankCreditMachine.next("none", "import.matched").to;
    // What this credit applied: the sum due less what earlier credits paid, less what was written off.
    const applied = toppedUp.length > 0 || decision.shortfall ? credit.amount : amountDue(transfer);
    await tx
      .update(bankCredits)
      .set({ state, transferId: transfer.id, appliedAmount: applied, writtenOffAmount: decision.shortfall, resolvedAt: now })
      .where(eq(bankCredits.id, id));
    return "matched";
  }
  const state = bankCreditMachine.next("none", "import.queued").to;
  await tx
    .update(bankCredits)
    .set({ state, reason: decision.fund ? null : decision.reason, transferId: transfer?.id ?? null })
    .where(eq(bankCredits.id, id));
  return "unmatched";
}

/**
 * Only statements of a collection account fund transfers: a credit on any
 * other account (the payout bank's, a savings account) is not money customers paid us, and
 * booking it to cash:collection would misstate the books. The whole file is refused, nothing is
 * imported: 400 validation.fieldInvalid at Stmt.Acct.Id naming the accounts (masked). The
 * collection accounts are the setting's and every configuration version's (a customer told to pay
 * into an account before a version replaced it still pays into it).
 */
export function refuseOtherAccounts(statement: ParsedStatement, ibans: readonly string[]): void {
  const refuse = (message: string) => {
    throw validationError([{ field: "Stmt.Acct.Id", code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);
  };
  if (ibans.length === 0) refuse("No collection account is configured (COLLECTION_ACCOUNT_IBAN): a bank statement cannot be imported.");
  const other = statement.accounts.find((account) => !ibans.includes(account));
  if (other !== undefined) {
    const ours =
      ibans.length === 1 && ibans[0] === config().collectionAccount?.iban
        ? `the collection account ${maskAccount(ibans[0])} (COLLECTION_ACCOUNT_IBAN)`
        : `a collection account (${ibans.map((iban) => maskAccount(iban)).join(", ")}: the setting's and the configuration versions')`;
    refuse(`The statement is of account ${maskAccount(other) ?? "(none given)"}, not ${ours}: nothing was imported.`);
  }
}
