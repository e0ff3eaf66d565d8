import { type Config } from "@/lib/platform/config";
import { configOrExit, exitRefused } from "@/lib/platform/config/refusal";
import { verifySmtpLogin } from "@/lib/platform/notifications/email";

/**
 * The start-up check of a serving process (the web server's instrumentation hook, npm run worker):
 * the configuration (lib/platform/config: formats, keys, providers), then in production what can only be
 * checked by using it: the SMTP server's login (nodemailer's verify). Any problem: its lines on
 * stderr and exit 78, before the first request or job.
 */
export async function checkStartup(): Promise<Config> {
  const c = configOrExit();
  if (!c.sandbox) {
    const lines = await credentialProblems(c);
    if (lines.length > 0) exitRefused(lines);
  }
  return c;
}

async function credentialProblems(c: Config): Promise<string[]> {
  const lines: string[] = [];
  if (c.providers.otpEmail === "smtp") {
    const problem = await verifySmtpLogin();
    if (problem) lines.push(`SMTP_URL: ${problem}`);
  }
  return lines;
}
