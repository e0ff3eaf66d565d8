/**
 * The receipt by e-mail: enqueued when a transfer is funded (in that
 * transaction), sent by the OTP mail provider to the customer's e-mail login identifier, outside
 * any transaction. No e-mail identifier (a phone login): nothing is sent. In sandbox the message
 * goes to the outbox (purpose RECEIPT) like the sandbox OTP e-mails.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { prepared } from "@/db/prepared";
import { beneficiaries, customers, loginIdentifiers, otpOutbox, partners, transfers, transferStateHistory } from "@/db/schema";
import { residenceAddressOf, timeZoneOfAddress } from "@/lib/identity";
import { receiptLines, receiptMessages } from "@/lib/platform/i18n/receipt-messages";
import type { Language } from "@/lib/platform/i18n/language";
import { defineJob, doneWith } from "@/lib/platform/jobs/define";
import { sendEmail } from "@/lib/platform/notifications/email";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { providers } from "@/lib/payments/providers";
import { webviewTokenInsert } from "@/lib/platform/webviews/tokens";
import { backoffWithJitter } from "@/lib/partners";
import { notYetFunded, providerFrom, RECEIPT_URL_TTL_SECONDS, receiptFactsOf } from "./receipt";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Called in the funding's transaction: the job is written with the unit's other effects, in their statement. */
export async function queueReceiptEmail(tx: Tx, transferId: string, now: Date): Promise<void> {
  await effectsOf(tx).jobs.schedule("receipts.email", { transferId }, { runAt: now, maxAttempts: 6 });
}

export const emailReceipt = defineJob({
  kind: "receipts.email",
  schema: z.object({ transferId: z.string() }),
  backoff: (failures) => Math.min(backoffWithJitter(failures), 600),
  perform: async (db: Db, run) => {
    const { payload, now } = run;
    // Everything the message says, in one prepared statement (six reads before).
    const [read] = await receiptEmailRead(db).execute({ transferId: payload.transferId });
    if (!read) return;
    const { transfer, email } = read;
    if (email === null) return;
    const language = (read.preferred ?? "en") as Language;
    if (!read.fundedAt) throw notYetFunded(transfer);
    const recipientName = read.beneficiary ? `${read.beneficiary.first} ${read.beneficiary.last}` : "";
    const timeZone = timeZoneOfAddress(residenceAddressOf(read.profile));
    const facts = receiptFactsOf(transfer, language, { funded: read.fundedAt, provider: providerFrom(read.partner), recipientName, timeZone });
    // The receipt's link: its token written before the message leaves (with it, in sandbox).
    const token = webviewTokenInsert(db, {
      kind: "RECEIPT",
      sessionId: transfer.id,
      partnerId: transfer.partnerId,
      ttlSeconds: RECEIPT_URL_TTL_SECONDS,
      now,
    });
    const url = token.url;
    const m = receiptMessages[language];
    const lines = receiptLines(facts, language, timeZone);
    const text = [m.title, "", ...lines.map(([k, v]) => `${k}: ${v}`), "", facts.rightsStatement, "", `${m.link}: ${url}`].join("\n");
    const html =
      `<h1>${escapeHtml(m.title)}</h1><table>${lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>` +
      `<p>${escapeHtml(facts.rightsStatement).replace(/\n/g, "<br>")}</p><p><a href="${escapeHtml(url)}">${escapeHtml(m.link)}</a></p>`;
    // Outside a unit of work, effects are written at once in one statement: the token (and, in
    // sandbox, the message) commit before the e-mail is sent, outside any transaction.
    if (providers().otpEmail === "sandbox") {
      const message = db
        .insert(otpOutbox)
        .values({ id: newId("msg"), partnerId: transfer.partnerId, identifier: email, purpose: "RECEIPT", otp: null, message: text, createdAt: now });
      // The job's "done" too: nothing is left to fail after this statement.
      await effectsOf(db).atCommit(token.insert, message, ...doneWith(run));
      return;
    }
    await effectsOf(db).atCommit(token.insert);
    await sendEmail(email, { subject: m.subject, text, html });
  },
});

/**
 * The transfer, the customer's e-mail login identifier, preferred language and profile (its
 * residence address gives the time zone), when it was (last)
 * funded (lib/payments/transfers/funded-at.ts), the partner's contact and the beneficiary's name, by the
 * transfer's id: what receiptFacts reads in four statements and the job read in two more.
 */
const receiptEmailRead = (db: Db) =>
  prepared(db, "receipt_email_read", (e) =>
    e
      .select({
        transfer: transfers,
        email: sql<string | null>`(select ${loginIdentifiers.value} from ${loginIdentifiers}
          where ${loginIdentifiers.subscriptionId} = ${transfers.subscriptionId} and ${loginIdentifiers.type} = 'EMAIL' limit 1)`,
        preferred: customers.preferredLanguage,
        profile: customers.profile,
        fundedAt: sql<Date | null>`(${e
          .select({ at: transferStateHistory.transitionedAt })
          .from(transferStateHistory)
          .where(and(eq(transferStateHistory.transferId, transfers.id), eq(transferStateHistory.state, "funded")))
          .orderBy(desc(transferStateHistory.seq))
          .limit(1)})`.mapWith(transferStateHistory.transitionedAt),
        partner: { name: partners.name, contact: partners.providerContact },
        beneficiary: { first: beneficiaries.firstName, last: beneficiaries.lastName },
      })
      .from(transfers)
      .leftJoin(customers, eq(customers.id, transfers.customerId))
      .leftJoin(partners, eq(partners.id, transfers.partnerId))
      .leftJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
      .where(eq(transfers.id, sql.placeholder("transferId")))
      .prepare("receipt_email_read"),
  );
