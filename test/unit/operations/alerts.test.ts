/**
 * Operations alerts: with the SMTP server refusing every login, OTP e-mails fail
 * and the "email.failing" incident opens; its opening is POSTed to the operations webhook once,
 * however many times the conditions are judged; when the server takes mail again and the e-mail
 * goes out, the incident resolves and the resolution goes out once, on the webhook and (SMTP
 * working again) by e-mail. Listed for the console's Overview.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Db } from "@/db";
import { operationsIncidents, otpDeliveries } from "@/db/schema";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
let smtp: SMTPServer;
let hook: Server;
let smtpAccepts = false;
const posts: { status: string; incident: { condition: string; subject: string | null; resolvedAt: string | null } }[] = [];
const mails: ParsedMail[] = [];

before(async () => {
  smtp = new SMTPServer({
    authOptional: false,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // The password changed on the server: every login is refused until it is put back.
    onAuth(auth, _session, cb) {
      if (smtpAccepts && auth.username === "remit" && auth.password === "s3cret-pass") return cb(null, { user: auth.username });
      cb(new Error("Invalid username or password"));
    },
    onData(stream, _session, cb) {
      simpleParser(stream)
        .then((mail) => void mails.push(mail))
        .then(() => cb(), cb);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  hook = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      posts.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://remit:s3cret-pass@127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  process.env.OTP_EMAIL_FROM = "Remit <no-reply@remit.test>";
  process.env.OPERATIONS_ALERT_WEBHOOK_URL = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`;
  process.env.OPERATIONS_ALERT_EMAIL = "ops@remit.test";
  // A database of its own on PostgreSQL: other files' rows (failing jobs, backlogs) would open incidents of their own.
  ({ db, close } = await freshDb({ ownDatabase: true }));
});

after(async () => {
  await close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  hook.closeAllConnections();
  await new Promise((resolve) => hook.close(resolve));
});

test("an SMTP server refusing mail opens one incident, alerted once, and its resolution is alerted once", async () => {
  const { clock } = await import("@/lib/platform/clock");
  const { deliverOtp } = await import("@/lib/identity/auth/otp-delivery");
  const { evaluateAlerts, recentIncidents } = await import("@/lib/operations/observability/alerts");
  const now = clock.now();
  await db.insert(otpDeliveries).values({
    id: "dlv_alerts_test",
    partnerId: "ptr_alerts_test",
    channel: "EMAIL",
    provider: "smtp",
    recipient: "customer@example.com",
    purpose: "REGISTRATION",
    language: "en",
    codeEncrypted: null,
    state: "PENDING",
    createdAt: now,
  });
  const attempt = (attemptNo: number) =>
    deliverOtp.perform!(db, {
      payload: { deliveryId: "dlv_alerts_test" },
      jobId: "job_alerts_test",
      attempt: attemptNo,
      now: clock.now(),
      signal: new AbortController().signal,
    });
  const emailPosts = () => posts.filter((p) => p.incident.condition === "email.failing");

  await assert.rejects(attempt(1), /Invalid login|Invalid username/);
  await evaluateAlerts(db, clock.now());
  await evaluateAlerts(db, clock.now());
  assert.deepEqual(
    emailPosts().map((p) => p.status),
    ["firing"],
    "the opening is sent once",
  );
  assert.equal(mails.length, 0, "the alert e-mail cannot go out while SMTP refuses");
  const [open] = await db.select().from(operationsIncidents).where(eq(operationsIncidents.condition, "email.failing"));
  assert.equal(open.resolvedAt, null);
  assert.ok(open.openingWebhookSentAt);
  assert.equal(open.openingEmailSentAt, null, "the e-mail of the opening is still owed");

  await assert.rejects(attempt(2));
  await evaluateAlerts(db, clock.now());
  assert.equal(emailPosts().length, 1, "a second failure of the same incident is not a second alert");

  smtpAccepts = true;
  await attempt(3);
  await evaluateAlerts(db, clock.now());
  await evaluateAlerts(db, clock.now());
  assert.deepEqual(
    emailPosts().map((p) => p.status),
    ["firing", "resolved"],
    "the resolution is sent once",
  );
  assert.ok(emailPosts()[1].incident.resolvedAt);
  // The OTP itself, then one alert e-mail: the resolution (it says when the incident opened).
  const alertMails = mails.filter((m) => m.subject?.includes("email.failing"));
  assert.deepEqual(
    alertMails.map((m) => m.subject),
    ["[RESOLVED] email.failing"],
  );
  const incidents = await recentIncidents(db, clock.now());
  const listed = incidents.filter((i) => i.condition === "email.failing");
  assert.equal(listed.length, 1);
  assert.ok(listed[0].resolvedAt);
});

test("the conditions table: rates go stale only when a whole business day passed without a publication; a refreshed list past its period and margin", async () => {
  const { firing } = await import("@/lib/operations/observability/alert-conditions");
  const base = {
    jobs: [],
    jobQueueAge: [],
    jobFailures: [],
    webhooks: [],
    email: { retrying: 0, failedSinceLastSent: 0 },
    sanctionsLists: [],
    screeningCasesOpen: 0,
    screeningCasesOlder: null,
    complianceCasesOpen: 0,
    complianceCasesOverdue: 0,
    claimsOverdue: 0,
    reconciliation: { differences: 0, oldestDays: null },
    database: { driver: "pglite" as const, poolMax: 1, connections: [] },
  };
  const friday = { source: "ecb", publishedAt: new Date("2026-11-27T15:00:00Z") };
  const at = (iso: string, extra: object = {}) => firing({ ...base, referenceRates: [friday], at: new Date(iso), ...extra }, { refreshHours: 24 });
  assert.deepEqual(at("2026-11-30T09:00:00Z"), [], "Friday's rates on Monday morning: the weekend is no business day");
  assert.deepEqual(
    at("2026-12-01T09:00:00Z").map((f) => [f.condition, f.subject]),
    [["referenceRates.stale", "ecb"]],
    "on Tuesday, Monday passed without rates",
  );
  const lists = [
    { list: "ofac-sdn", loadedAt: new Date("2026-11-29T00:00:00Z"), refreshed: true },
    { list: "un-consolidated", loadedAt: new Date("2026-11-20T00:00:00Z"), refreshed: false },
  ];
  assert.deepEqual(at("2026-11-30T05:59:00Z", { sanctionsLists: lists }), [], "within 24 h plus 6 h; a list without sources is loaded once");
  assert.deepEqual(
    at("2026-11-30T06:01:00Z", { sanctionsLists: lists }).map((f) => f.subject),
    ["ofac-sdn"],
  );
});
