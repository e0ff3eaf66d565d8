import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/platform/config";

/** An e-mail's subject and bodies (an OTP message, a receipt, a notice). */
export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

// nodemailer: the maintained SMTP client (STARTTLS, smtps, auth, pooling); one transport per process.
let transport: Transporter | null = null;

function smtp(): Transporter {
  const url = config().SMTP_URL;
  if (!url) throw new Error("SMTP_URL is not configured");
  // Connection and greeting limits keep a dead server from holding a job until its hard timeout.
  transport ??= nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as object);
  return transport;
}

/** Sends one email over SMTP_URL from OTP_EMAIL_FROM; throws on any SMTP failure (the job retries). */
export async function sendEmail(to: string, message: EmailMessage): Promise<void> {
  await smtp().sendMail({ from: config().OTP_EMAIL_FROM, to, subject: message.subject, text: message.text, html: message.html });
}

/**
 * Connects, says EHLO, upgrades to TLS as SMTP_URL asks and logs in (nodemailer's verify), sending
 * nothing: null when that worked, else why not (the server's answer, e.g. "Invalid login: 535 ...";
 * it never holds the password). The start-up check refuses to serve without it.
 */
export async function verifySmtpLogin(): Promise<string | null> {
  try {
    await smtp().verify();
    return null;
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return `the SMTP server did not accept a connection and login (${reason})`;
  }
}
