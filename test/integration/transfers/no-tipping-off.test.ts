/**
 * No tipping off: a customer with an open compliance case (a transfer sent to
 * review by the review rules, another put on compliance hold, and so a risk rating) reads nothing of it. Every
 * partner-visible body (the transfers, their list, the profile, the beneficiaries, every event,
 * which are the webhook bodies) is walked, keys and values, and no word of cases, reports,
 * typologies, rules, scores, alerts, flags or ratings appears; the held transfer reads onreview
 * with TRF_CHECK_REVIEW and nothing else. On PostgreSQL the case and the customer's rating (MEDIUM,
 * for the open case) are checked to exist. The hosted
 * webview pages such a customer can open (KYC capture, funding, the receipt of a transfer then put
 * on hold) say none of it either: their text and the data sent with them. A PEP (a name of the
 * sandbox's PEP fixture) whose transfer waits in review reads no word of PEPs either.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { and, eq } from "drizzle-orm";
import { complianceAlerts, complianceCases, customerRiskFlags, customerRiskRatings, transfers } from "@/db/schema";
import {
  acceptTransfer,
  awaitFastCheck,
  awaitStatus,
  call,
  completeFunding,
  completeKyc,
  confirmNow,
  hold,
  onboardedCustomer,
  openKyc,
  pendingCustomer,
  registerDevice,
  submit,
  submitBody,
  validBeneficiaryId,
  validCustomer,
  type Customer,
} from "../support";
import { withServerDatabase } from "../support/database";

const FORBIDDEN = new Set([
  "case",
  "cases",
  "report",
  "reports",
  "typology",
  "typologies",
  "rule",
  "rules",
  "score",
  "scores",
  "alert",
  "alerts",
  "flag",
  "flags",
  "flagged",
  "rating",
  "ratings",
  "rated",
  "risk",
]);

/** The words of a key or a value: split on anything not a letter and at camelCase humps. */
const words = (s: string) =>
  s
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);

function forbiddenIn(value: unknown, at: string, found: string[]): void {
  if (typeof value === "string") {
    for (const w of words(value)) if (FORBIDDEN.has(w)) found.push(`${at}: "${value}"`);
  } else if (Array.isArray(value)) value.forEach((v, i) => forbiddenIn(v, `${at}[${i}]`, found));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      for (const w of words(k)) if (FORBIDDEN.has(w)) found.push(`${at}.${k} (key)`);
      forbiddenIn(v, `${at}.${k}`, found);
    }
  }
}

async function allEvents(c: Customer): Promise<unknown[]> {
  const out: unknown[] = [];
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res: { status: number; text: string; body: any } = await call("GET", `/v1/core/events?limit=100${after ? `&after=${after}` : ""}`, {
      token: c.token,
    });
    assert.equal(res.status, 200, res.text);
    out.push(...res.body.items);
    if (!res.body.hasMore) return out;
    after = String(res.body.items.at(-1).sequence);
  }
  throw new Error("too many events");
}

test("a customer with an open case and a held transfer reads no word of cases, reports, typologies, rules, scores, alerts or flags", async () => {
  const c = await validCustomer();
  const beneficiaryId = await validBeneficiaryId(c);
  // One transfer the review rules send to onreview (amount at the threshold)...
  const reviewed = await acceptTransfer(c, beneficiaryId, { originAmount: "1000.000000" });
  assert.equal((await submit(c, reviewed.transferId, submitBody(beneficiaryId))).status, 202);
  const onreview = await awaitFastCheck(c, reviewed.transferId);
  assert.equal(onreview.transferStatus, "onreview");
  // ...and one validated, then put on compliance hold.
  const held = await acceptTransfer(c, beneficiaryId);
  assert.equal((await submit(c, held.transferId, submitBody(beneficiaryId))).status, 202);
  assert.equal((await awaitFastCheck(c, held.transferId)).transferStatus, "validated");
  const holdRes = await hold(c, held.transferId);
  assert.ok(holdRes.status < 300, holdRes.text);

  const kinds = await withServerDatabase(async (db) => {
    const [t] = await db.select({ customerId: transfers.customerId }).from(transfers).where(eq(transfers.id, reviewed.transferId));
    const [open] = await db
      .select()
      .from(complianceCases)
      .where(and(eq(complianceCases.customerId, t.customerId), eq(complianceCases.state, "OPEN")));
    if (!open) return [];
    return (await db.select().from(complianceAlerts).where(eq(complianceAlerts.caseId, open.id)))
      .filter((a) => !a.shadow) // monitoring runs in shadow in the sandbox: its alerts may join too
      .map((a) => a.kind)
      .sort();
  });
  if (kinds !== null) assert.deepEqual(kinds, ["COMPLIANCE_HOLD", "REVIEW_RULE"], "the customer has an open case with both alerts");
  // The rating job runs after the case opened: the customer is rated before the bodies are read.
  const rating = await withServerDatabase(async (db) => {
    const [t] = await db.select({ customerId: transfers.customerId }).from(transfers).where(eq(transfers.id, reviewed.transferId));
    for (let i = 0; i < 50; i++) {
      const [r] = await db.select().from(customerRiskRatings).where(eq(customerRiskRatings.customerId, t.customerId));
      if (r?.reasons.some((x) => x.factor === "open_case")) return r.rating;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return "not rated";
  });
  if (rating !== null) assert.equal(rating, "MEDIUM", "the customer is rated, with the open case");

  const bodies: [string, unknown][] = [];
  for (const path of [
    `/v1/core/transfers/${reviewed.transferId}`,
    `/v1/core/transfers/${held.transferId}`,
    "/v1/core/transfers",
    "/v1/core/profile",
    "/v1/core/beneficiaries",
    `/v1/core/beneficiaries/${beneficiaryId}`,
  ]) {
    const res = await call("GET", path, { token: c.token });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    bodies.push([path, res.body]);
  }
  const events = await allEvents(c);
  assert.ok(events.length > 0);
  bodies.push(["/v1/core/events (the webhook bodies)", events]);

  const found: string[] = [];
  for (const [where, body] of bodies) forbiddenIn(body, where, found);
  assert.deepEqual(found, []);

  const [, reviewedBody] = bodies[0] as [string, { transferStatus: string; stateHistory: { reasonCode: string }[] }];
  assert.equal(reviewedBody.transferStatus, "onreview");
  assert.equal(reviewedBody.stateHistory.at(-1)?.reasonCode, "TRF_CHECK_REVIEW");
});

test("a PEP whose transfer waits for an admin's approval reads nothing of it: the transfer is in review like any other", async () => {
  const c = await onboardedCustomer({ firstName: "Thaddeus", lastName: "Moreau-Lindqvist", dateOfBirth: "1949-07-14" });
  const beneficiaryId = await validBeneficiaryId(c);
  const small = await acceptTransfer(c, beneficiaryId, { originAmount: "40.000000" });
  assert.equal((await submit(c, small.transferId, submitBody(beneficiaryId))).status, 202);
  assert.equal((await awaitFastCheck(c, small.transferId)).transferStatus, "onreview", "held for the PEP, not refused");

  const flag = await withServerDatabase(async (db) => {
    const [t] = await db.select({ customerId: transfers.customerId }).from(transfers).where(eq(transfers.id, small.transferId));
    const [f] = await db
      .select()
      .from(customerRiskFlags)
      .where(and(eq(customerRiskFlags.customerId, t.customerId), eq(customerRiskFlags.flag, "PEP")));
    return f ? [f.source, f.approvedAt] : [];
  });
  if (flag !== null) assert.deepEqual(flag, ["pep-screening", null], "the customer is flagged PEP, not yet approved");

  const bodies: [string, unknown][] = [];
  for (const path of [`/v1/core/transfers/${small.transferId}`, "/v1/core/transfers", "/v1/core/profile", `/v1/core/beneficiaries/${beneficiaryId}`]) {
    const res = await call("GET", path, { token: c.token });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    bodies.push([path, res.body]);
  }
  bodies.push(["/v1/core/events (the webhook bodies)", await allEvents(c)]);
  const found: string[] = [];
  for (const [where, body] of bodies) forbiddenIn(body, where, found);
  const pepWords = new Set(["pep", "peps", "politically", "exposed", "politician"]);
  for (const [where, body] of bodies) if (words(JSON.stringify(body)).some((w) => pepWords.has(w))) found.push(`${where}: a word of PEPs`);
  assert.deepEqual(found, []);
  const [, detail] = bodies[0] as [string, { transferStatus: string; stateHistory: { reasonCode: string }[] }];
  assert.equal(detail.stateHistory.at(-1)?.reasonCode, "TRF_CHECK_REVIEW");
});

/**
 * What a hosted page gives the customer's browser: its text, the attribute values a person can
 * read (titles, labels, placeholders, values) and the inline scripts' data (the props sent to its
 * client components); not the framework's own script files.
 */
function pageWords(html: string): string {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  const attributes = [...html.matchAll(/\b(?:title|alt|aria-label|placeholder|value|content)="([^"]*)"/g)].map((m) => m[1]);
  const text = html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z#0-9]+;/gi, " ");
  return [text, ...attributes, ...inline].join(" ");
}

/** A hosted page as the customer's browser opens it: where (token hidden), its words, whether it is the expired page. */
async function openPage(url: string): Promise<{ where: string; text: string; expired: boolean }> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  const html = await res.text();
  return { where: new URL(url).pathname.replace(/[^/]{20,}$/, "<token>"), text: pageWords(html), expired: html.includes("webview-expired") };
}

test("the hosted webview pages a customer with an open case and a held transfer can open say no word of it either", async () => {
  const c = await pendingCustomer();
  const onboarding = await openKyc(c);
  assert.equal((await completeKyc(c, onboarding.kycSessionId, "APPROVED")).status, 200);
  await awaitStatus(c, "VALID");
  const beneficiaryId = await validBeneficiaryId(c);
  // The review rules hold one transfer: the customer's case opens.
  const reviewed = await acceptTransfer(c, beneficiaryId, { originAmount: "1000.000000" });
  assert.equal((await submit(c, reviewed.transferId, submitBody(beneficiaryId))).status, 202);
  assert.equal((await awaitFastCheck(c, reviewed.transferId)).transferStatus, "onreview");

  // Another is confirmed (its funding page opened while the case is open), funded, its receipt
  // issued, then put on compliance hold.
  const held = await acceptTransfer(c, beneficiaryId);
  assert.equal((await submit(c, held.transferId, submitBody(beneficiaryId))).status, 202);
  assert.equal((await awaitFastCheck(c, held.transferId)).transferStatus, "validated");
  const confirmed = await confirmNow({ customer: c, device: await registerDevice(c) }, held.transferId);
  const fundingUrl: string = confirmed.fundingSession.fundingWebviewUrl;
  const pages = [await openPage(fundingUrl)];
  assert.equal((await completeFunding(c, confirmed.fundingSession.fundingSessionId)).status, 200);
  const receipt = await call("GET", `/v1/core/transfers/${held.transferId}/receipt`, { token: c.token });
  assert.equal(receipt.status, 200, receipt.text);
  const holdRes = await hold(c, held.transferId);
  assert.ok(holdRes.status < 300, holdRes.text);

  // With the case open and the transfer held: the receipt, the funding page again, the onboarding
  // KYC page, and a new (enhanced) KYC capture page.
  pages.push(await openPage(receipt.body.receiptUrl), await openPage(fundingUrl), await openPage(onboarding.webviewUrl));
  const enhanced = await openKyc(c);
  pages.push(await openPage(enhanced.webviewUrl));

  // The live pages were opened, not the expired one: the funding page, the receipt, the new KYC capture.
  assert.deepEqual(
    pages.map((p) => [p.where, p.expired]),
    [
      ["/webviews/funding/<token>", false],
      ["/webviews/receipt/<token>", false],
      ["/webviews/funding/<token>", true],
      ["/webviews/kyc/<token>", true],
      ["/webviews/kyc/<token>", false],
    ],
  );
  assert.ok(pages[1].text.includes(receipt.body.recipientName), "the receipt names the recipient");
  const found: string[] = [];
  for (const { where, text } of pages) {
    for (const m of text.matchAll(/\S+/g)) {
      if (words(m[0]).some((w) => FORBIDDEN.has(w))) found.push(`${where}: …${text.slice(Math.max(0, m.index - 40), m.index + 40)}…`);
    }
  }
  assert.deepEqual(found, []);
});
