/** KYC sessions: POST/GET /v1/core/kyc-sessions, the hosted webview, sandbox outcomes (spec 2.3, 4.1 rule 2; decisions 4). */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { formatDateTime } from "@/lib/platform/i18n/format";
import { EXPIRED_PAGE, openWebview } from "./helpers";
import {
  BASE_URL,
  advanceClock,
  call,
  assertError,
  completeKyc,
  createKyc,
  customerWithProfile,
  newCustomer,
  openKyc,
  readKyc,
  readProfile,
  relogin,
  serverNow,
} from "../support";

const CREATE_KEYS = ["closureCallback", "expiresAt", "kycSessionId", "purpose", "sessionExpiresAt", "sessionState", "webviewUrl"];
const READ_KEYS = ["closedAt", "expiresAt", "kycSessionId", "openedAt", "purpose", "sessionState"];
const FR_TITLE = "Vérifiez votre identité";
const EN_TITLE = "Verify your identity";

/** The demo partner's current settings (PUT with an empty body changes nothing). */
let partner: { returnOrigins: string[]; deepLinkBase: string | null };
before(async () => {
  const res = await call("PUT", "/v1/sandbox/partner", { body: {} });
  assert.equal(res.status, 200, res.text);
  partner = res.body;
});

const seconds = (a: string | Date, b: string | Date) => (new Date(a).getTime() - new Date(b).getTime()) / 1000;

test("before a profile: 403 customer.statusInsufficient with remediationHint submit_profile_attributes", async () => {
  const c = await newCustomer();
  const error = assertError(await createKyc(c), 403, "customer.statusInsufficient");
  assert.equal(error.details.remediationHint, "submit_profile_attributes");
  assert.equal(error.remediation, "submit_profile_attributes");
  assert.equal(error.details.currentStatus, "PENDING");
  assert.equal((await readProfile(c)).body.kycStatus, "NOT_STARTED");
});

test("create: session, 30-minute webview URL, 24-hour session, closureCallback; a second create returns the same session", async () => {
  const c = await customerWithProfile();
  const t0 = await serverNow();
  const res = await createKyc(c);
  const t1 = await serverNow();
  assert.equal(res.status, 200, res.text);
  const s = res.body;
  assert.deepEqual(Object.keys(s).sort(), CREATE_KEYS);
  assert.equal(typeof s.kycSessionId, "string");
  assert.ok(s.kycSessionId.length > 0);
  assert.equal(s.purpose, "NEW");
  assert.equal(s.sessionState, "CREATED");
  assert.ok(s.webviewUrl.startsWith(`${BASE_URL}/webviews/kyc/`), s.webviewUrl);
  assert.ok(!s.webviewUrl.includes(s.kycSessionId), "the URL is opaque");
  assert.ok(seconds(s.expiresAt, t0) >= 1800 && seconds(s.expiresAt, t1) <= 1800, `expiresAt ${s.expiresAt} not now+30 min (${t0.toISOString()})`);
  assert.ok(seconds(s.sessionExpiresAt, t0) >= 86400 && seconds(s.sessionExpiresAt, t1) <= 86400, `sessionExpiresAt ${s.sessionExpiresAt}`);
  assert.deepEqual(s.closureCallback, {
    postMessage: { type: "kyc.closed", targetOrigin: partner.returnOrigins[0] ?? null },
    deepLink: s.closureCallback.deepLink,
  });
  assert.notEqual(s.closureCallback.postMessage.targetOrigin, "*");
  if (partner.deepLinkBase) assert.ok(s.closureCallback.deepLink.startsWith(partner.deepLinkBase), s.closureCallback.deepLink);
  else assert.equal(s.closureCallback.deepLink, null);

  // KYC is now in progress on the profile.
  const profile = await readProfile(c);
  assert.equal(profile.body.status, "PENDING");
  assert.equal(profile.body.kycStatus, "IN_PROGRESS");

  // Server-side idempotency (spec 4.1 rule 2): a new key returns the open session with a fresh URL.
  const again = await createKyc(c);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.kycSessionId, s.kycSessionId);
  assert.equal(again.body.purpose, "RESUME", "KYC is IN_PROGRESS now (spec 2.3)");
  assert.notEqual(again.body.webviewUrl, s.webviewUrl);
  assert.equal(again.body.sessionExpiresAt, s.sessionExpiresAt, "the session's own lifetime does not restart");

  // The session read: CREATED until the page is opened.
  const read = await readKyc(c, s.kycSessionId);
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(Object.keys(read.body).sort(), READ_KEYS);
  assert.equal(read.body.kycSessionId, s.kycSessionId);
  assert.equal(read.body.purpose, "NEW", "the session was opened as a new one");
  assert.equal(read.body.sessionState, "CREATED");
  assert.equal(read.body.closedAt, null);
  assert.equal(read.body.expiresAt, s.sessionExpiresAt);
  assert.equal(seconds(read.body.expiresAt, read.body.openedAt), 86400, "expiresAt is 24 hours after openedAt");
  // Both URLs are live. The page writes its link's end in the customer's time (Austin, Texas:
  // Central), with the offset; the API's expiresAt stays UTC.
  const first = (await openWebview(s.webviewUrl, { "accept-language": "en" })).html;
  assert.ok(!first.includes(EXPIRED_PAGE));
  assert.match(s.expiresAt, /Z$/);
  const until = formatDateTime(s.expiresAt, "en", "America/Chicago");
  assert.match(until, / C[SD]T \(UTC−0[56]:00\)$/);
  assert.ok(first.includes(until), `the page lacks ${until}`);
  assert.ok(!(await openWebview(again.body.webviewUrl)).html.includes(EXPIRED_PAGE));
});

test("opening the webview: IN_PROGRESS; security headers: CSP frame-ancestors = partner origins with a nonce, no-referrer", async () => {
  const c = await customerWithProfile();
  const s = await openKyc(c);
  const page = await openWebview(s.webviewUrl);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  assert.ok(!page.html.includes(EXPIRED_PAGE));
  assert.ok(page.html.includes(EN_TITLE), "English by default");

  const csp = page.headers.get("content-security-policy") ?? "";
  const directives = new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  const ancestors = directives.get("frame-ancestors");
  assert.ok(ancestors, `no frame-ancestors in ${csp}`);
  assert.deepEqual(ancestors, partner.returnOrigins.length > 0 ? partner.returnOrigins : ["'none'"]);
  assert.ok(!ancestors.includes("*"));
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(directives.get("script-src")?.join(" ") ?? "");
  assert.ok(nonce, `no script nonce in ${csp}`);
  assert.ok(page.html.includes(`nonce="${nonce[1]}"`), "the page's scripts carry the nonce");
  assert.equal(page.headers.get("referrer-policy"), "no-referrer");
  assert.equal(page.headers.get("cache-control"), "no-store");
  assert.equal(page.headers.get("x-content-type-options"), "nosniff");

  // A fresh nonce per response.
  const second = await openWebview(s.webviewUrl);
  assert.notEqual(/'nonce-([^']+)'/.exec(second.headers.get("content-security-policy") ?? "")?.[1], nonce[1]);

  const read = await readKyc(c, s.kycSessionId);
  assert.equal(read.body.sessionState, "IN_PROGRESS");
  assert.equal(read.body.closedAt, null);
});

test("APPROVED: VALID/COMPLETED, session COMPLETED with closedAt, the URL is dead, a new create is the step-up (ENHANCED)", async () => {
  const c = await customerWithProfile();
  const s = await openKyc(c);
  await openWebview(s.webviewUrl);
  const done = await completeKyc(c, s.kycSessionId, "APPROVED");
  assert.equal(done.status, 200, done.text);
  assert.deepEqual(done.body, { kycSessionId: s.kycSessionId, sessionState: "COMPLETED", outcome: "APPROVED" });

  const profile = await readProfile(c);
  assert.equal(profile.body.status, "VALID");
  assert.equal(profile.body.kycStatus, "COMPLETED");
  assert.equal(profile.body.transactability, true);
  assert.equal(profile.body.customerActionExpected, false);

  const read = await readKyc(c, s.kycSessionId);
  assert.equal(read.body.sessionState, "COMPLETED");
  assert.ok(read.body.closedAt && !Number.isNaN(Date.parse(read.body.closedAt)), read.text);
  assert.ok(seconds(read.body.closedAt, read.body.openedAt) >= 0);

  const page = await openWebview(s.webviewUrl);
  assert.ok(page.html.includes(EXPIRED_PAGE), "a completed session's URL shows the expired page");

  // At tier 1 a completed KYC opens a step-up session (source of funds), never a new KYC.
  const stepUp = await createKyc(c);
  assert.equal(stepUp.status, 200, stepUp.text);
  assert.equal(stepUp.body.purpose, "ENHANCED");
  assert.notEqual(stepUp.body.kycSessionId, s.kycSessionId);
  // A second verdict on a closed session is refused.
  assertError(await completeKyc(c, s.kycSessionId, "REJECTED"), 409, "kyc.sessionStateInvalid");
  assert.equal((await readProfile(c)).body.status, "VALID");
});

test("REJECTED: BLOCKED/REJECTED; a new create → 403 customer.statusBlocking", async () => {
  const c = await customerWithProfile();
  const s = await openKyc(c);
  assert.equal((await completeKyc(c, s.kycSessionId, "REJECTED")).status, 200);
  const profile = await readProfile(c);
  assert.equal(profile.body.status, "BLOCKED");
  assert.equal(profile.body.kycStatus, "REJECTED");
  assert.equal(profile.body.transactability, false);
  assert.equal((await readKyc(c, s.kycSessionId)).body.sessionState, "COMPLETED", "the session carries lifecycle only");
  const error = assertError(await createKyc(c), 403, "customer.statusBlocking");
  assert.equal(error.details.remediationHint, "contact_support");
});

test("REMEDIATION_REQUIRED: RESTRICTED/REMEDIATION_REQUIRED; a new session has purpose RESUBMISSION; approval → VALID", async () => {
  const c = await customerWithProfile();
  const s = await openKyc(c);
  assert.equal((await completeKyc(c, s.kycSessionId, "REMEDIATION_REQUIRED")).status, 200);
  let profile = await readProfile(c);
  assert.equal(profile.body.status, "RESTRICTED");
  assert.equal(profile.body.kycStatus, "REMEDIATION_REQUIRED");
  assert.equal(profile.body.transactability, false);
  assert.equal(profile.body.customerActionExpected, true);

  const again = await openKyc(c);
  assert.notEqual(again.kycSessionId, s.kycSessionId);
  assert.equal(again.purpose, "RESUBMISSION");
  assert.equal(again.sessionState, "CREATED");
  assert.equal((await readKyc(c, again.kycSessionId)).body.purpose, "RESUBMISSION");
  const reopened = await openKyc(c);
  assert.equal(reopened.kycSessionId, again.kycSessionId);
  assert.equal(reopened.purpose, "RESUBMISSION");

  assert.equal((await completeKyc(c, again.kycSessionId, "APPROVED")).status, 200);
  profile = await readProfile(c);
  assert.equal(profile.body.status, "VALID");
  assert.equal(profile.body.kycStatus, "COMPLETED");
});

test("another customer's session → 404 kycSession.notFound (read and sandbox complete), like an unknown id", async () => {
  const owner = await customerWithProfile();
  const s = await openKyc(owner);
  const other = await customerWithProfile();
  const foreign = assertError(await readKyc(other, s.kycSessionId), 404, "kycSession.notFound");
  const unknown = assertError(await readKyc(other, "kyc_doesnotexist000000000000"), 404, "kycSession.notFound");
  assert.equal(foreign.message, unknown.message, "no hint that the session exists");
  assertError(await completeKyc(other, s.kycSessionId, "APPROVED"), 404, "kycSession.notFound");
  assert.equal((await readKyc(owner, s.kycSessionId)).body.sessionState, "CREATED");
  assert.equal((await readProfile(owner)).body.status, "PENDING");
});

test("an unknown webview token shows the expired page", async () => {
  const page = await openWebview(`${BASE_URL}/webviews/kyc/${"A".repeat(43)}`);
  assert.ok(page.html.includes(EXPIRED_PAGE));
});

test("the webview URL dies after 30 minutes; the session lives on and a new create gives a working URL", async () => {
  const c = await customerWithProfile();
  const s = await openKyc(c);
  await advanceClock(1801);
  const page = await openWebview(s.webviewUrl);
  assert.ok(page.html.includes(EXPIRED_PAGE), "URL past its 30 minutes");
  assert.equal((await readKyc(c, s.kycSessionId)).body.sessionState, "CREATED");

  const again = await openKyc(c);
  assert.equal(again.kycSessionId, s.kycSessionId);
  assert.notEqual(again.webviewUrl, s.webviewUrl);
  assert.ok(!(await openWebview(again.webviewUrl)).html.includes(EXPIRED_PAGE));
  assert.equal((await readKyc(c, s.kycSessionId)).body.sessionState, "IN_PROGRESS");
});

test("the session reads EXPIRED after 24 hours; it can no longer be decided; a new create opens a new session", async () => {
  let c = await customerWithProfile();
  const s = await openKyc(c);
  await openWebview(s.webviewUrl);
  await advanceClock(86401);
  c = await relogin(c); // the access token lived one hour

  const read = await readKyc(c, s.kycSessionId);
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.sessionState, "EXPIRED");
  assertError(await completeKyc(c, s.kycSessionId, "APPROVED"), 410, "kyc.sessionExpired");
  assert.equal((await readProfile(c)).body.status, "PENDING");

  const fresh = await openKyc(c);
  assert.notEqual(fresh.kycSessionId, s.kycSessionId);
  assert.equal(fresh.sessionState, "CREATED");
  assert.equal(fresh.purpose, "RESUME", "KYC is IN_PROGRESS");
  assert.equal((await completeKyc(c, fresh.kycSessionId, "APPROVED")).status, 200);
  assert.equal((await readProfile(c)).body.status, "VALID");
});

test("a URL issued near the session's 24-hour end expires with the session, not 30 minutes later", async () => {
  let c = await customerWithProfile();
  const s = await openKyc(c);
  await advanceClock(86400 - 600); // 10 minutes of session left
  c = await relogin(c);
  const late = await openKyc(c);
  assert.equal(late.kycSessionId, s.kycSessionId);
  assert.equal(late.sessionExpiresAt, s.sessionExpiresAt);
  assert.ok(
    Date.parse(late.expiresAt) <= Date.parse(late.sessionExpiresAt),
    `URL expiresAt ${late.expiresAt} after the session's end ${late.sessionExpiresAt}`,
  );
  assert.ok(!(await openWebview(late.webviewUrl)).html.includes(EXPIRED_PAGE));
});

test("X-Idempotency-Key is accepted as an alias of Idempotency-Key", async () => {
  const c = await customerWithProfile();
  const key = randomUUID();
  const first = await createKyc(c, { idempotencyKey: null, headers: { "x-idempotency-key": key } });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.headers.get("idempotent-replayed"), null);
  // The same key under either name replays the same answer.
  const replay = await createKyc(c, { idempotencyKey: null, headers: { "x-idempotency-key": key } });
  assert.equal(replay.status, 200);
  assert.equal(replay.text, first.text);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  const canonical = await createKyc(c, { idempotencyKey: key });
  assert.equal(canonical.text, first.text);
  assert.equal(canonical.headers.get("idempotent-replayed"), "true");
  // Neither header: 400 on header.Idempotency-Key.
  const none = await createKyc(c, { idempotencyKey: null });
  const error = assertError(none, 400, "validation.fieldMissing");
  assert.deepEqual(
    error.details.issues.map((i: { field: string }) => i.field),
    ["header.Idempotency-Key"],
  );
});

test("Accept-Language fr: the page is in French (at create, or when the page is opened)", async () => {
  const c = await customerWithProfile();
  const s = await openKyc(c, { "accept-language": "fr-FR,fr;q=0.9" });
  const page = await openWebview(s.webviewUrl);
  assert.ok(page.html.includes(FR_TITLE), "session created in French");
  // The document itself, and its title.
  assert.match(page.html, /<html[^>]*\slang="fr"/);
  assert.match(page.html, new RegExp(`<title>${FR_TITLE}</title>`));

  const d = await customerWithProfile();
  const t = await openKyc(d);
  const fr = await openWebview(t.webviewUrl, { "accept-language": "fr" });
  assert.ok(fr.html.includes(FR_TITLE), "page opened with Accept-Language fr");
  assert.ok(!fr.html.includes(EN_TITLE));
});
