import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { Agent, fetch as undiciFetch } from "undici";
import { spawnServer, type SpawnedServer } from "../../support/spawned-server";

/**
 * A sandbox server with SMTP_URL delivers OTP codes by email to a real SMTP
 * server (smtp-server on loopback, with auth), in the customer's language, and never logs them.
 * The server is a process of its own (SMTP_URL, full log capture) on a fresh PGlite database.
 */
const KEY = "sandbox-demo-key";
// One connection per request: the server's start-up work (the sanctions import) can outlast its
// keep-alive timeout, and a reused socket it closed meanwhile would fail a request with ECONNRESET.
const noKeepAlive = new Agent({ pipelining: 0 });
const fetch = (url: string, init: Parameters<typeof undiciFetch>[1] = {}) => undiciFetch(url, { ...init, dispatcher: noKeepAlive });
const received: ParsedMail[] = [];
const logins: string[] = [];
let smtp: SMTPServer;
let server: SpawnedServer;

before(async () => {
  smtp = new SMTPServer({
    authOptional: false,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      logins.push(auth.username ?? "");
      if (auth.username === "remit" && auth.password === "s3cret-pass") return cb(null, { user: auth.username });
      cb(new Error("Invalid username or password"));
    },
    onData(stream, _session, cb) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  server = await spawnServer({
    LOG_LEVEL: "trace",
    SMTP_URL: `smtp://remit:s3cret-pass@127.0.0.1:${port}`,
    OTP_EMAIL_FROM: "Remit <no-reply@remit.test>",
    // A sanctions source that cannot be read: the list never loads, so /readyz stays 503 (below).
    SANCTIONS_SOURCE_URLS: "/nonexistent/remit-test/sdn.csv",
  });
});

after(async () => {
  await server?.stop();
  await noKeepAlive.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

async function startRegistration(identifier: string, acceptLanguage?: string): Promise<void> {
  const res = await fetch(`${server.baseUrl}/v1/auth/register/start`, {
    method: "POST",
    headers: { "content-type": "application/json", "ocp-apim-subscription-key": KEY, ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}) },
    body: JSON.stringify({ identifier }),
  }).catch((e: Error) => {
    throw new Error(`register/start: ${String(e.cause ?? e)}\n${server.output().slice(-3000)}`);
  });
  assert.equal(res.status, 200, await res.text());
}

async function outboxCode(identifier: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/v1/sandbox/otp?identifier=${encodeURIComponent(identifier)}`, { headers: { "ocp-apim-subscription-key": KEY } });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { otp?: string; messages?: { otp: string }[] };
  const code = body.otp ?? body.messages?.[0]?.otp;
  assert.match(code ?? "", /^\d{6}$/, JSON.stringify(body));
  return code!;
}

async function mailTo(address: string): Promise<ParsedMail> {
  for (let i = 0; i < 80; i++) {
    const mail = received.find((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.text.includes(address)));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`no email reached ${address}`);
}

describe("OTP by email over SMTP (issue 11 item 2)", () => {
  test("a registration in French gets its code by SMTP, in French, as text and HTML; the outbox has it too", async () => {
    const email = `marie.${Date.now()}@example.com`;
    await startRegistration(email, "fr-FR,fr;q=0.9,en;q=0.5");
    const code = await outboxCode(email);
    const mail = await mailTo(email);
    assert.equal(mail.from?.text, '"Remit" <no-reply@remit.test>');
    assert.equal(mail.subject, "Votre code de vérification pour la création de votre compte");
    assert.match(mail.text ?? "", new RegExp(`Votre code de vérification pour la création de votre compte est ${code}\\. Il expire dans 10 minutes\\.`));
    assert.match(String(mail.html), new RegExp(`<strong>${code}</strong>`));
    assert.ok(logins.includes("remit"), "the server authenticated to SMTP");
  });

  test("English by default, Spanish when asked; a password reset names its purpose", async () => {
    const en = `john.${Date.now()}@example.com`;
    await startRegistration(en);
    assert.equal((await mailTo(en)).subject, "Your verification code for creating your account");
    const es = `lucia.${Date.now()}@example.com`;
    await startRegistration(es, "es");
    const mail = await mailTo(es);
    assert.equal(mail.subject, "Su código de verificación para crear su cuenta");
    assert.match(mail.text ?? "", /Caduca en 10 minutos/);
  });

  test("no code appears in any line the server logged", async () => {
    const email = `logs.${Date.now()}@example.com`;
    await startRegistration(email, "fr");
    const code = await outboxCode(email);
    await mailTo(email);
    const output = server.output();
    assert.ok(output.length > 0, "the server's log output was captured");
    const leaking = output.split("\n").filter((line) => line.includes(code));
    assert.deepEqual(leaking, []);
  });
});

/**
 * Probes on this server because it keeps its whole log (LOG_LEVEL=trace) and its
 * sanctions list cannot load: /readyz answers 503 in the error envelope naming what is missing,
 * and neither probe writes a log line, while an API request does.
 */
describe("probes on a server that is not ready (issue 20 item 4)", () => {
  test("GET /readyz: 503 internal.unavailable naming the sanctions lists, with Retry-After; GET /livez: 200", async () => {
    const ready = await fetch(`${server.baseUrl}/readyz`);
    const body = (await ready.json()) as { error: { code: string; message: string; details: { checks: Record<string, string> } } };
    assert.equal(ready.status, 503, JSON.stringify(body));
    assert.equal(body.error.code, "internal.unavailable");
    assert.equal(body.error.message, "Not ready: the sanctions lists are not loaded yet.");
    assert.deepEqual(body.error.details.checks, { database: "ok", migrations: "ok", sanctionsLists: "failed", referenceRates: "not used" });
    assert.equal(ready.headers.get("retry-after"), "5");
    assert.equal((await fetch(`${server.baseUrl}/livez`)).status, 200);
  });

  test("the probes are not logged per call; an API request is", async () => {
    const before = server.output().length;
    for (let i = 0; i < 3; i++) {
      await (await fetch(`${server.baseUrl}/livez`)).text();
      await (await fetch(`${server.baseUrl}/readyz`)).text();
    }
    await (await fetch(`${server.baseUrl}/v1/auth/health`, { headers: { "ocp-apim-subscription-key": KEY } })).text();
    const logged = await eventuallyLogged(before, "/v1/auth/health");
    assert.deepEqual(
      logged.split("\n").filter((line) => /livez|readyz/.test(line)),
      [],
    );
  });
});

/** The server's output since `from`, once it holds `marker` (log lines are written asynchronously). */
async function eventuallyLogged(from: number, marker: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const text = server.output().slice(from);
    if (text.includes(marker)) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`no log line with ${marker}:\n${server.output().slice(from)}`);
}
