import { eq, sql } from "drizzle-orm";
import { preparedOn } from "@/db/prepared";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { fundingSessions, transfers } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import type { FundingSource } from "@/lib/finance";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { countFailures, recordFailure } from "@/lib/identity";
import { webviewTokenInsert } from "@/lib/platform/webviews/tokens";
import { fundingSessionMachine } from "./funding-session-state-machine";
import { transitionTransfer, type TransferRow } from "./records";
import { expireIfOverdue } from "./deadline";
import { closeFundingSession, type FundingSessionRow } from "./funding-session-expiry";
import { newSessionExpiry } from "./funding-window";
import { startPayout } from "./network";
import { queueReceiptEmail } from "@/lib/payments/receipts/email-job";

/**
 * A new funding attempt after confirm: 30 minutes, its single-use webview URL (spec 2.8), but
 * never past the transfer's own deadline (./funding-window.ts). The session and
 * its token are written at commit (nothing in the unit reads them back), with the job that
 * expires it.
 */
export async function openFundingSession(tx: Tx, transfer: TransferRow, now: Date) {
  const id = newId("fs");
  const expiresAt = newSessionExpiry(transfer, now);
  const ttlSeconds = Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));
  const webview = webviewTokenInsert(tx, { kind: "FUNDING", sessionId: id, partnerId: transfer.partnerId, ttlSeconds, now });
  const effects = effectsOf(tx);
  await effects.atCommit(
    tx.insert(fundingSessions).values({ id, transferId: transfer.id, state: fundingSessionMachine.next("none", "create").to, expiresAt, createdAt: now }),
    webview.insert,
  );
  await effects.jobs.schedule("funding.expire", { fundingSessionId: id }, { runAt: expiresAt, dedupeKey: dedupeKey("funding.expire", id) });
  return { fundingSessionId: id, fundingWebviewUrl: webview.url, expiresAt: expiresAt.toISOString() };
}

/**
 * A funding session and its transfer, locked in the order every path uses (transfer, then
 * session), so a cancel racing a payment never deadlocks: one waits for the other. One prepared
 * statement (three before): the transfer named by the session locked in a CTE, then the
 * session; each row as it is once locked (a row changed while waiting is read again).
 */
export async function lockFundingSession(tx: Tx, fundingSessionId: string): Promise<{ session: FundingSessionRow; transfer: TransferRow } | undefined> {
  const [row] = await preparedOn(tx, "funding_session_locked", (e) => {
    const id = sql.placeholder("fundingSessionId");
    const transfer = e.$with("transfer").as(
      e
        .select()
        .from(transfers)
        .where(eq(transfers.id, sql`(select ${fundingSessions.transferId} from ${fundingSessions} where ${fundingSessions.id} = ${id})`))
        .for("update"),
    );
    return e
      .with(transfer)
      .select({ transfer: transfer._.selectedFields, session: fundingSessions })
      .from(transfer)
      .innerJoin(fundingSessions, eq(fundingSessions.id, id))
      .for("update", { of: fundingSessions })
      .prepare("funding_session_locked");
  }).execute({ fundingSessionId });
  return row && { session: row.session, transfer: row.transfer as TransferRow };
}

/** Where a payment by this method lands: bank transfers in the collection account, the rest via the card PSP. */
export function fundingSourceOf(method: string | undefined): FundingSource {
  return method === "BANK_TRANSFER" ? "cash:collection" : "cash:card-clearing";
}

/**
 * The payment provider's answer for a funding session (the hosted page, the sandbox endpoint, or
 * a matched bank credit). Success funds the transfer (TRF_FUNDING_SUCCESS), records where the
 * money came from (fundedFrom, default by method; "suspense:unallocated" for a statement credit
 * already posted to suspense) for the ledger and the refund, and hands it to the payout network.
 * A decline leaves the transfer in funding and the session OPEN for another card or method until
 * it expires; the FUNDING_MAX_DECLINES-th decline closes it FAILED (docs/decisions.md).
 * `declinesLeft` is for the hosted page only.
 */
export async function completeFunding(
  tx: Tx,
  input: { session: FundingSessionRow; transfer: TransferRow; outcome: "SUCCEEDED" | "FAILED"; method?: string; fundedFrom?: FundingSource; now: Date },
) {
  const { session, now } = input;
  // Past the 120-minute deadline the transfer expires now, and the payment is refused (kept).
  const transfer = await expireIfOverdue(tx, input.transfer, now);
  if (transfer.state !== input.transfer.state) {
    throw new DomainError("funding.sessionExpired", { message: "The transfer expired before it was funded.", keepChanges: true });
  }
  if (session.state === "OPEN" && session.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError("funding.sessionExpired", { message: "The funding session has expired. Confirm the transfer again to get a new one." });
  }
  const to = fundingSessionMachine.next(session.state, input.outcome === "SUCCEEDED" ? "provider.succeeded" : "provider.failed").to;
  if (input.outcome === "SUCCEEDED") {
    const fundedFrom = input.fundedFrom ?? fundingSourceOf(input.method);
    const funded = await transitionTransfer(tx, transfer, "funding.succeeded", now, { fundedFrom });
    await closeFundingSession(tx, session, to, now, input.method);
    await startPayout(tx, funded, now);
    // The receipt goes out by e-mail once this commits (a job: no mail in the transaction).
    await queueReceiptEmail(tx, funded.id, now);
    return { fundingSessionId: session.id, sessionState: to, transferStatus: funded.state };
  }
  await transitionTransfer(tx, transfer, "funding.failed", now);
  // The session row is locked (lockFundingSession), so concurrent declines are counted one by one.
  const scope = `funding-decline:${session.id}`;
  await recordFailure(tx, scope, now);
  const declinesLeft = config().FUNDING_MAX_DECLINES - (await countFailures(tx, scope, config().FUNDING_TTL_SECONDS, now));
  if (declinesLeft > 0) return { fundingSessionId: session.id, sessionState: to, transferStatus: transfer.state, declinesLeft };
  const failed = fundingSessionMachine.next(session.state, "declines.exhausted").to;
  await closeFundingSession(tx, session, failed, now, input.method);
  // Back to validated: the customer confirms again for a new session (spec 4.1 rule 11).
  const reopened = await transitionTransfer(tx, transfer, "funding.declined", now);
  return { fundingSessionId: session.id, sessionState: failed, transferStatus: reopened.state, declinesLeft: 0 };
}
