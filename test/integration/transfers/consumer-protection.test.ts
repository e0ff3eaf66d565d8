/**
 * Consumer protection: the receipt of a funded transfer (every field of 12 CFR
 * 1005.31(b)(2), 409 before funding, its hosted page), the 30-minute cancellation right (a full
 * refund, fees included, within 3 business days), error claims (201 within 180 days of the date
 * available with dueBy 90 days on, 422 claim.windowClosed after, each change a signed
 * claim.status.changed webhook) and disclosure v3 in the three languages (the recipient, the date
 * available, both rights; with an EEA origin the charge over the reference rate). Through the public
 * HTTP API and the sandbox clock; the last test moves the shared clock 190 days, so it runs last.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { formatDateTime } from "@/lib/platform/i18n/format";
import { fundedScenario, registeredScenario } from "./support";
import {
  advanceClock,
  assertError,
  call,
  cancel,
  eventually,
  mexBeneficiary,
  readDisclosure,
  readTransfer,
  receivePartnerWebhooks,
  relogin,
  serverNow,
  serviceQuote,
  uniqueSurname,
  validBeneficiaryId,
  validCustomer,
  type Delivery,
  POLL_MS,
} from "../support";

const DAY_MS = 86_400_000;
const RECEIPT_KEYS = [
  "cancellableUntil",
  "dateAvailable",
  "destinationAmount",
  "destinationCurrency",
  "fundedAt",
  "fxRate",
  "language",
  "originAmount",
  "originCurrency",
  "partnerFee",
  "principalFee",
  "provider",
  "receiptUrl",
  "recipientName",
  "rightsStatement",
  "taxes",
  "totalCustomerCost",
  "totalCustomerCostCurrency",
  "transferId",
  "transferStatus",
].sort();

const receipt = (c: { token: string }, transferId: string, headers: Record<string, string> = {}) =>
  call("GET", `/v1/core/transfers/${encodeURIComponent(transferId)}/receipt`, { token: c.token, headers });
const reportClaim = (c: { token: string }, transferId: string, body: unknown) =>
  call("POST", `/v1/core/transfers/${encodeURIComponent(transferId)}/claims`, { token: c.token, body });
const listClaims = (c: { token: string }, transferId: string) => call("GET", `/v1/core/transfers/${encodeURIComponent(transferId)}/claims`, { token: c.token });

const deliveries: Delivery[] = [];
let webhooks: Awaited<ReturnType<typeof receivePartnerWebhooks>>;
before(async () => {
  webhooks = await receivePartnerWebhooks(deliveries);
});
after(() => webhooks.close());

describe("receipt", () => {
  test("before funding: 409 transfer.stateInvalid", async () => {
    const s = await registeredScenario();
    assertError(await receipt(s.c, s.transferId), 409, "transfer.stateInvalid");
  });

  test("a funded transfer's receipt carries every field, the date available no earlier than funding, cancellableUntil funding + 30 min", async () => {
    const s = await fundedScenario();
    const detail = (await readTransfer(s.c, s.transferId)).body;
    const res = await receipt(s.c, s.transferId);
    assert.equal(res.status, 200, res.text);
    const r = res.body;
    assert.deepEqual(Object.keys(r).sort(), RECEIPT_KEYS);
    for (const key of [
      "originAmount",
      "originCurrency",
      "principalFee",
      "partnerFee",
      "totalCustomerCost",
      "fxRate",
      "destinationAmount",
      "destinationCurrency",
    ])
      assert.equal(r[key], detail[key], key);
    assert.equal(r.totalCustomerCostCurrency, "USD");
    assert.equal(r.taxes, "0.000000");
    const funded = detail.stateHistory.find((h: any) => h.state === "funded").transitionedAt;
    assert.equal(r.fundedAt, funded);
    assert.ok(Date.parse(r.dateAvailable) >= Date.parse(funded), `${r.dateAvailable} before ${funded}`);
    assert.equal(Date.parse(r.cancellableUntil) - Date.parse(funded), 30 * 60_000);
    assert.match(r.recipientName, /^Lucia Hernandez/);
    assert.deepEqual(Object.keys(r.provider).sort(), ["name", "phone", "regulator", "website"]);
    assert.ok(r.provider.name && r.provider.phone && r.provider.website && r.provider.regulator, JSON.stringify(r.provider));
    assert.equal(r.language, "en");
    assert.match(r.rightsStatement, /cancel this transfer until .* \(30 minutes after payment\) for a full refund, fees included/);
    assert.match(r.rightsStatement, /within 180 days/);
    assert.ok(r.rightsStatement.includes(r.provider.phone), r.rightsStatement);
    // Times for people in the customer's zone (Austin, Texas: Central), with the offset; the fields stay UTC.
    for (const at of [r.fundedAt, r.dateAvailable, r.cancellableUntil]) assert.match(at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const until = formatDateTime(r.cancellableUntil, "en", "America/Chicago");
    assert.match(until, / C[SD]T \(UTC−0[56]:00\)$/);
    assert.ok(r.rightsStatement.includes(`cancel this transfer until ${until} (30 minutes`), r.rightsStatement);
    // The hosted page, bound to its token: printable, in the customer's language.
    assert.match(r.receiptUrl, /\/webviews\/receipt\/[A-Za-z0-9_-]{20,}$/);
    const page = await fetch(r.receiptUrl, { headers: { "accept-language": "fr" } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Reçu de transfert/);
    assert.ok(html.includes(r.recipientName));
    for (const at of [r.fundedAt, r.dateAvailable, r.cancellableUntil]) {
      const local = formatDateTime(at, "fr", "America/Chicago");
      assert.match(local, / UTC−0[56]:00$/);
      assert.ok(html.includes(local), `the page lacks ${local}`);
    }
    const forged = await fetch(r.receiptUrl.replace(/[A-Za-z0-9_-]{6}$/, "AAAAAA"));
    assert.match(await forged.text(), /webview-expired/);
    // French and Spanish rights statements, chosen like the disclosure's language.
    const fr = await receipt(s.c, s.transferId, { "accept-language": "fr" });
    assert.equal(fr.body.language, "fr");
    assert.equal(fr.headers.get("content-language"), "fr");
    assert.match(fr.body.rightsStatement, /remboursé intégralement, frais compris/);
    assert.match(fr.body.rightsStatement, /180 jours/);
    const es = await receipt(s.c, s.transferId, { "accept-language": "es" });
    assert.match(es.body.rightsStatement, /reembolso total, comisiones incluidas/);
  });
});

describe("the 30-minute cancellation right", () => {
  test("cancelled 10 minutes after funding: the whole total is refunded, fees included, within 3 business days", async () => {
    const s = await fundedScenario({ fresh: true });
    const funded = await serverNow();
    await advanceClock(10 * 60);
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 202, res.text);
    const detail = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(res.body.refund.refundAmount, detail.totalCustomerCost);
    assert.equal(res.body.refund.refundCurrency, detail.originCurrency);
    assert.notEqual(detail.totalCustomerCost, detail.originAmount, "the total includes the fees");
    const by = Date.parse(res.body.refund.estimatedRefundCompletionBy);
    // 3 business days: at least 3 calendar days, never more than 3 business days (a long weekend: 6).
    assert.ok(by >= funded.getTime() + 3 * DAY_MS && by <= funded.getTime() + 10 * 60_000 + 6 * DAY_MS, res.body.refund.estimatedRefundCompletionBy);
    assert.deepEqual(detail.refund, res.body.refund);
  });
});

describe("disclosure v3", () => {
  test("en, fr and es name the recipient, the date available and both rights", async () => {
    const c = await validCustomer();
    const last = uniqueSurname("Receiver");
    const name = `Lucia ${last}`;
    const beneficiaryId = await validBeneficiaryId(c, { firstName: "Lucia", lastName: last });
    const q = await serviceQuote(c, beneficiaryId);
    const checks: Record<string, RegExp[]> = {
      en: [
        /^Recipient: Lucia Receiver[a-z]+\./m,
        /Date available: the money will be available to the recipient by /,
        /within 30 minutes of payment for a full refund/,
        /within 180 days/,
      ],
      fr: [/^Bénéficiaire : Lucia Receiver[a-z]+\./m, /Date de mise à disposition : /, /dans les 30 minutes qui suivent le paiement/, /dans les 180 jours/],
      es: [/^Beneficiario: Lucia Receiver[a-z]+\./m, /Fecha de disponibilidad: /, /en los 30 minutos siguientes al pago/, /en los 180 días/],
    };
    for (const [language, patterns] of Object.entries(checks)) {
      const res = await readDisclosure(c, q.quoteId, { "accept-language": language });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.version, "2026-11-v3");
      assert.equal(res.body.recipientName, name);
      // Counted from now, like the quote's (both if funded now): never before the quote was made.
      assert.ok(Date.parse(res.body.estimatedDeliveryBy) >= Date.parse(q.estimatedDeliveryBy), `${res.body.estimatedDeliveryBy} < ${q.estimatedDeliveryBy}`);
      for (const p of patterns) assert.match(res.body.content, p, `${language}: ${res.body.content}`);
      assert.ok(!("conversionChargeOverEcbRate" in res.body), "a US origin states no ECB mark-up");
    }
  });

  test("an EEA origin (France) states the conversion charge over the ECB reference rate", async () => {
    const c = await validCustomer({
      nationality: "FRA",
      residenceCountry: "FRA",
      residenceAddress: { addressLine1: "1 rue de Rivoli", city: "Paris", postalCode: "75001", country: "FRA" },
    });
    const beneficiaryId = await validBeneficiaryId(c, mexBeneficiary({ countryOfResidence: "SEN" }));
    const q = await serviceQuote(c, beneficiaryId, { originCurrency: "EUR", destinationCurrency: "XOF" });
    const res = await readDisclosure(c, q.quoteId, { "accept-language": "fr" });
    assert.equal(res.status, 200, res.text);
    const charge = res.body.conversionChargeOverEcbRate;
    assert.ok(charge, res.text);
    assert.match(charge.percentage, /^-?\d+\.\d\d$/);
    assert.match(res.body.content, /Frais de conversion monétaire : -?\d+,\d\d % au-dessus du taux de référence de l’euro de la BCE/);
    const en = await readDisclosure(c, q.quoteId);
    assert.match(en.body.content, /Currency conversion charge: -?\d+\.\d\d % above the ECB euro reference rate/);
    // A Paris customer reads Paris time, with the offset.
    const until = formatDateTime(en.body.expiresAt, "en", "Europe/Paris");
    assert.match(until, / UTC\+0[12]:00$/);
    assert.ok(en.body.content.includes(`This price is guaranteed until ${until}.`), en.body.content);
  });
});

describe("error claims", () => {
  const claimDeliveries = (transferId: string) =>
    deliveries.filter((d) => d.body?.eventType === "claim.status.changed" && d.body?.data?.transferId === transferId);

  test("before funding: 409; within the window: 201 OPEN with dueBy 90 days on, listed, and a signed claim.status.changed webhook", async () => {
    const early = await registeredScenario();
    assertError(await reportClaim(early.c, early.transferId, { type: "NOT_RECEIVED", description: "Too early" }), 409, "transfer.stateInvalid");

    const s = await fundedScenario();
    const bad = await reportClaim(s.c, s.transferId, { type: "STOLEN", description: "x" });
    assert.equal(bad.status, 400, bad.text);
    const now = await serverNow();
    const res = await reportClaim(s.c, s.transferId, { type: "NOT_RECEIVED", description: "My mother has not received the money." });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, "OPEN");
    assert.equal(res.body.outcome, null);
    const due = Date.parse(res.body.dueBy) - now.getTime();
    assert.ok(due >= 90 * DAY_MS && due < 90 * DAY_MS + 60_000, res.body.dueBy);
    const listed = await listClaims(s.c, s.transferId);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.items, [res.body]);

    await eventually(() => Promise.resolve(claimDeliveries(s.transferId).length > 0), POLL_MS, "claim.status.changed webhook");
    const [delivery] = claimDeliveries(s.transferId);
    new Webhook(webhooks.secret).verify(delivery.rawBody, {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    });
    assert.deepEqual(delivery.body.data, {
      claimId: res.body.claimId,
      transferId: s.transferId,
      type: "NOT_RECEIVED",
      status: "OPEN",
      previousStatus: null,
      dueBy: res.body.dueBy,
    });
    const events = await call("GET", "/v1/core/events?type=claim.status.changed", { token: s.c.token });
    assert.deepEqual(
      events.body.items.filter((e: any) => e.data.transferId === s.transferId),
      [delivery.body],
    );
  });

  test("100 parallel reports of one type (each its own Idempotency-Key): one OPEN claim, 99 answered 409 claim.alreadyOpen (issue 36)", async () => {
    const s = await fundedScenario();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => reportClaim(s.c, s.transferId, { type: "NOT_RECEIVED", description: `Not arrived (${i})` })),
    );
    const created = answers.filter((a) => a.status === 201);
    assert.equal(created.length, 1, answers.map((a) => a.status).join(","));
    for (const a of answers.filter((x) => x.status !== 201)) {
      const error = assertError(a, 409, "claim.alreadyOpen");
      assert.equal(error.details.claimId, created[0].body.claimId);
    }
    // Another type is its own claim.
    assert.equal((await reportClaim(s.c, s.transferId, { type: "WRONG_AMOUNT", description: "Less arrived" })).status, 201);
    const listed = await listClaims(s.c, s.transferId);
    assert.deepEqual(
      listed.body.items.map((c: { type: string; status: string }) => [c.type, c.status]),
      [
        ["NOT_RECEIVED", "OPEN"],
        ["WRONG_AMOUNT", "OPEN"],
      ],
    );
  });

  // Last: moves the shared clock 190 days (tests after this file create their own customers and tokens).
  test("more than 180 days after the date available: 422 claim.windowClosed", async () => {
    const s = await fundedScenario({ fresh: true });
    const available = Date.parse((await receipt(s.c, s.transferId)).body.dateAvailable);
    let now = await serverNow();
    while (now.getTime() <= available + 181 * DAY_MS)
      now = await advanceClock(Math.min(90 * 86_400, Math.ceil((available + 181 * DAY_MS - now.getTime()) / 1000) + 60));
    await relogin(s.c);
    const error = assertError(await reportClaim(s.c, s.transferId, { type: "LATE", description: "It never arrived." }), 422, "claim.windowClosed");
    assert.equal(Date.parse(error.details.claimWindowEndedAt), available + 180 * DAY_MS);
  });
});
