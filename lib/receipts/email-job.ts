/**
 * The receipt by e-mail (issue 25 item 3): enqueued when a transfer is funded (in that
 * transaction), sent by the OTP mail provider to the customer's e-mail login identifier, outside
 * any transaction. No e-mail identifier (a phone login): nothing is sent. In sandbox the message
 * goes to the outbox (purpose RECEIPT) like the sandbox OTP e-mails.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { customers, loginIdentifiers, otpOutbox, transfers } from "@/db/schema";
import { receiptLines, receiptMessages } from "@/lib/i18n/receipt-messages";
import type { Language } from "@/lib/i18n/language";
import { defineJob } from "@/lib/jobs/define";
import { sendEmail } from "@/lib/notifications/email";
import { effectsOf, inUnit } from "@/lib/platform/unit-of-work";
import { providers } from "@/lib/providers";
import { backoffWithJitter } from "@/lib/webhooks/retry";
import { issueReceiptUrl, receiptFacts } from "./receipt";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Called in the funding's transaction: the job is written with the unit's other effects, in their statement (issue 26). */
export async function queueReceiptEmail(tx: Tx, transferId: string, now: Date): Promise<void> {
  await effectsOf(tx).jobs.enqueue("receipts.email", { transferId }, { runAt: now, maxAttempts: 6 });
}

export const emailReceipt = defineJob({
  kind: "receipts.email",
  schema: z.object({ transferId: z.string() }),
  backoff: (failures) => Math.min(backoffWithJitter(failures), 600),
  perform: async (db: Db, { payload, now, jobId }) => {
    const [transfer] = await db.select().from(transfers).where(eq(transfers.id, payload.transferId));
    if (!transfer) return;
    const [email] = await db
      .select({ value: loginIdentifiers.value })
      .from(loginIdentifiers)
      .where(and(eq(loginIdentifiers.subscriptionId, transfer.subscriptionId), eq(loginIdentifiers.type, "EMAIL")));
    if (!email) return;
    const [customer] = await db.select({ preferred: customers.preferredLanguage }).from(customers).where(eq(customers.id, transfer.customerId));
    const language = (customer?.preferred ?? "en") as Language;
    const facts = await receiptFacts(db, transfer, language);
    const url = await inUnit((unit) => issueReceiptUrl(unit.tx, transfer, now), { actor: { kind: "job", id: jobId, jobKind: "receipts.email" }, now, db });
    const m = receiptMessages[language];
    const lines = receiptLines(facts, language);
    const text = [m.title, "", ...lines.map(([k, v]) => `${k}: ${v}`), "", facts.rightsStatement, "", `${m.link}: ${url}`].join("\n");
    const html =
      `<h1>${escapeHtml(m.title)}</h1><table>${lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>` +
      `<p>${escapeHtml(facts.rightsStatement).replace(/\n/g, "<br>")}</p><p><a href="${escapeHtml(url)}">${escapeHtml(m.link)}</a></p>`;
    if (providers().otpEmail === "sandbox") {
      await db
        .insert(otpOutbox)
        .values({ id: newId("msg"), partnerId: transfer.partnerId, identifier: email.value, purpose: "RECEIPT", otp: null, message: text, createdAt: now });
      return;
    }
    await sendEmail(email.value, { subject: m.subject, text, html });
  },
});
