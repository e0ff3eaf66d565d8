/**
 * Disclosure and acceptance (spec 2.6, 3.5, 4.1 rules 4-5; decisions 6 and 8): disclosure fields,
 * language negotiation, headers; the single-use disclosure token; 201 with a registered transfer;
 * idempotent replay; one acceptance per quote, also under concurrency; customer gating.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { formatDateTime, formatDecimal, formatMoney } from "@/lib/platform/i18n/format";
import {
  acceptQuote,
  advanceClock,
  assertError,
  assertIssue,
  disclosureToken,
  listBeneficiaries,
  readBeneficiary,
  readDisclosure,
  readQuote,
  restrictedCustomer,
  serviceQuote,
  validBeneficiary,
  validCustomer,
  type Customer,
  forceScreening,
} from "../support";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const micros = (s: string): bigint => {
  const [i, f = ""] = s.split(".");
  return BigInt(i!) * 1_000_000n + BigInt((f + "000000").slice(0, 6));
};

let c: Customer;
let ben: any;
before(async () => {
  c = await validCustomer();
  ben = await validBeneficiary(c);
});

describe("disclosure", () => {
  test("fields of spec 2.6 + decisions 6, Cache-Control no-store, Content-Language", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const res = await readDisclosure(c, q.quoteId);
    assert.equal(res.status, 200, res.text);
    const d = res.body;
    assert.deepEqual(Object.keys(d).sort(), [
      "content",
      "destinationAmount",
      "destinationCurrency",
      "disclosureToken",
      "estimatedDeliveryBy",
      "expiresAt",
      "fees",
      "language",
      "originAmount",
      "originCurrency",
      "provider",
      "quoteId",
      "rate",
      "recipientName",
      "version",
    ]);
    assert.equal(d.quoteId, q.quoteId);
    assert.equal(typeof d.disclosureToken, "string");
    assert.ok(d.disclosureToken.length >= 16);
    assert.equal(d.originAmount, q.originAmount);
    assert.equal(d.originCurrency, "USD");
    assert.equal(d.destinationAmount, q.destinationAmount);
    assert.equal(d.destinationCurrency, "MXN");
    assert.deepEqual(Object.keys(d.fees).sort(), ["currency", "partnerFee", "principalFee", "totalFees"]);
    assert.equal(d.fees.principalFee, q.principalFee);
    assert.equal(d.fees.partnerFee, q.partnerFee);
    assert.equal(micros(d.fees.totalFees), micros(q.principalFee) + micros(q.partnerFee));
    assert.equal(d.fees.currency, "USD");
    assert.equal(d.rate, q.fxRate);
    assert.match(d.expiresAt, ISO);
    assert.equal(Date.parse(d.expiresAt), Date.parse(q.quoteValidUntil));
    assert.equal(d.language, "en");
    assert.equal(typeof d.version, "string");
    // The content states the facts the customer commits to, written for people.
    const facts = [
      formatMoney(q.originAmount, "USD", "en"),
      formatMoney(q.destinationAmount, "MXN", "en"),
      `1 USD = ${formatDecimal(q.fxRate, "en")} MXN`,
      formatMoney(q.totalCustomerCost, "USD", "en"),
      formatMoney(d.fees.totalFees, "USD", "en"),
      // In the customer's time zone (Austin, Texas: Central time), with the offset.
      formatDateTime(d.expiresAt, "en", "America/Chicago"),
    ];
    for (const fact of facts) assert.ok(d.content.includes(fact), `content lacks ${fact}`);
    assert.match(d.content, /Amount to send: USD\s\d[\d,]*\.\d\d\./);
    assert.match(d.content, /guaranteed until [A-Z][a-z]+ \d{1,2}, 20\d\d at \d{1,2}:\d\d\s[AP]M C[SD]T \(UTC−0[56]:00\)\./);
    // The wire forms stay in the response fields, not in the text.
    assert.ok(!d.content.includes(q.originAmount) && !d.content.includes(d.expiresAt), d.content);
    assert.match(res.headers.get("cache-control") ?? "", /no-store/);
    assert.equal(res.headers.get("content-language"), "en");
  });

  test("every read serves a new token", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const a = await disclosureToken(c, q.quoteId);
    const b = await disclosureToken(c, q.quoteId);
    assert.notEqual(a, b);
  });

  const languageCases: [string, string][] = [
    ["es;q=0.9, fr;q=1.0", "fr"],
    ["fr", "fr"],
    ["es-MX,es;q=0.9,en;q=0.5", "es"],
    ["de-DE, es;q=0.3", "es"],
    ["en-GB", "en"],
    ["de, it", "en"],
  ];
  for (const [header, expected] of languageCases) {
    test(`Accept-Language ${JSON.stringify(header)} → ${expected}`, async () => {
      const q = await serviceQuote(c, ben.beneficiaryId);
      const res = await readDisclosure(c, q.quoteId, { "accept-language": header });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.language, expected);
      assert.equal(res.headers.get("content-language"), expected);
    });
  }

  test("French content is French, Spanish content is Spanish", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const fr = await readDisclosure(c, q.quoteId, { "accept-language": "fr" });
    assert.match(fr.body.content, /Montant envoy/);
    // "102,99 USD" and "22 novembre 2026 à 14:42 UTC−06:00": French separators and month names.
    const space = "[\\s\\u202f\\u00a0]";
    assert.match(fr.body.content, new RegExp(`Total à payer : \\d[\\d${space.slice(1, -1)}]*,\\d\\d${space}USD\\.`));
    assert.match(fr.body.content, new RegExp(`garanti jusqu’au \\d{1,2} [a-zéû]+ 20\\d\\d à \\d\\d:\\d\\d${space}UTC−0[56]:00\\.`));
    assert.ok(fr.body.content.includes(formatMoney(q.totalCustomerCost, "USD", "fr")));
    const es = await readDisclosure(c, q.quoteId, { "accept-language": "es" });
    assert.match(es.body.content, /Importe enviado/);
    assert.match(es.body.content, new RegExp(`Total a pagar: \\d[\\d.]*,\\d\\d${space}USD\\.`));
    assert.match(es.body.content, new RegExp(`garantizado hasta el \\d{1,2} de [a-z]+ de 20\\d\\d`));
    assert.ok(es.body.content.includes(formatDateTime(q.quoteValidUntil, "es", "America/Chicago")));
  });

  test("no Accept-Language: the profile preference (es); the header still wins over it", async () => {
    const es = await validCustomer({ preferredLanguage: "es" });
    const b = await validBeneficiary(es);
    const q = await serviceQuote(es, b.beneficiaryId);
    const plain = await readDisclosure(es, q.quoteId);
    assert.equal(plain.status, 200, plain.text);
    assert.equal(plain.body.language, "es");
    assert.equal(plain.headers.get("content-language"), "es");
    const withHeader = await readDisclosure(es, q.quoteId, { "accept-language": "fr" });
    assert.equal(withHeader.body.language, "fr");
    // A header naming only unsupported languages falls back to the preference.
    const unsupported = await readDisclosure(es, q.quoteId, { "accept-language": "de" });
    assert.equal(unsupported.body.language, "es");
  });

  test("no Accept-Language and no preference: en", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const res = await readDisclosure(c, q.quoteId);
    assert.equal(res.body.language, "en");
  });

  test("unknown quote → 404 quote.notFound", async () => {
    assertError(await readDisclosure(c, "quo_doesnotexist000000000000"), 404, "quote.notFound");
  });
});

describe("accept", () => {
  test("→ 201 {quoteId, transferId, transferStatus registered}; quote ACCEPTED; beneficiary used", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const token = await disclosureToken(c, q.quoteId);
    const res = await acceptQuote(c, q.quoteId, token);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["quoteId", "transferId", "transferStatus"]);
    assert.equal(res.body.quoteId, q.quoteId);
    assert.match(res.body.transferId, /^\S+$/);
    assert.equal(res.body.transferStatus, "registered");
    const read = await readQuote(c, q.quoteId);
    assert.equal(read.body.status, "ACCEPTED");
    const detail = await readBeneficiary(c, ben.beneficiaryId);
    assert.match(detail.body.lastUsedAt, ISO);
  });

  test("without a served disclosure token → 422 quote.invalid (failedCheck disclosureToken)", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const error = assertError(await acceptQuote(c, q.quoteId, "dt_neverserved"), 422, "quote.invalid");
    assert.deepEqual(error.details, { failedCheck: "disclosureToken" });
    assert.equal((await readQuote(c, q.quoteId)).body.status, "AVAILABLE");
  });

  test("a token served for another quote → 422 quote.invalid", async () => {
    const q1 = await serviceQuote(c, ben.beneficiaryId);
    const q2 = await serviceQuote(c, ben.beneficiaryId);
    const token1 = await disclosureToken(c, q1.quoteId);
    const error = assertError(await acceptQuote(c, q2.quoteId, token1), 422, "quote.invalid");
    assert.deepEqual(error.details, { failedCheck: "disclosureToken" });
    // Still good for its own quote.
    assert.equal((await acceptQuote(c, q1.quoteId, token1)).status, 201);
  });

  test("a token served to another customer (for their own quote) → 422 quote.invalid", async () => {
    const other = await validCustomer();
    const ob = await validBeneficiary(other);
    const oq = await serviceQuote(other, ob.beneficiaryId);
    const otherToken = await disclosureToken(other, oq.quoteId);
    const q = await serviceQuote(c, ben.beneficiaryId);
    const error = assertError(await acceptQuote(c, q.quoteId, otherToken), 422, "quote.invalid");
    assert.deepEqual(error.details, { failedCheck: "disclosureToken" });
  });

  test("same key → 201 replay, identical body, Idempotent-Replayed; another key → 409 quote.invalid", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const token = await disclosureToken(c, q.quoteId);
    const key = randomUUID();
    const first = await acceptQuote(c, q.quoteId, token, { idempotencyKey: key });
    assert.equal(first.status, 201, first.text);
    const replay = await acceptQuote(c, q.quoteId, token, { idempotencyKey: key });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.text, first.text);
    assert.equal(replay.body.transferId, first.body.transferId);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    const again = assertError(await acceptQuote(c, q.quoteId, token), 409, "quote.invalid");
    assert.deepEqual(again.details, { failedCheck: "alreadyAccepted" });
    // A freshly served token cannot be had any more either: disclosure after acceptance → 409.
    const disclosure = assertError(await readDisclosure(c, q.quoteId), 409, "quote.invalid");
    assert.deepEqual(disclosure.details, { failedCheck: "alreadyAccepted" });
  });

  test("same key after the quote expired → still the original 201 (spec 4.1 rule 5), never 200 or 422", async () => {
    const fresh = await validCustomer();
    const b = await validBeneficiary(fresh);
    const q = await serviceQuote(fresh, b.beneficiaryId);
    const token = await disclosureToken(fresh, q.quoteId);
    const key = randomUUID();
    const first = await acceptQuote(fresh, q.quoteId, token, { idempotencyKey: key });
    assert.equal(first.status, 201, first.text);
    await advanceClock(61);
    const replay = await acceptQuote(fresh, q.quoteId, token, { idempotencyKey: key });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.text, first.text);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    // The accepted quote reads ACCEPTED, not EXPIRED.
    assert.equal((await readQuote(fresh, q.quoteId)).body.status, "ACCEPTED");
  });

  test("same key, different body → 409 idempotency.conflict", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const token = await disclosureToken(c, q.quoteId);
    const key = randomUUID();
    assert.equal((await acceptQuote(c, q.quoteId, token, { idempotencyKey: key })).status, 201);
    assertError(await acceptQuote(c, q.quoteId, token, { idempotencyKey: key, purposeOfTransfer: "RENT" }), 409, "idempotency.conflict");
  });

  test("the token is single use: a second token of the same quote cannot accept it again", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const t1 = await disclosureToken(c, q.quoteId);
    const t2 = await disclosureToken(c, q.quoteId);
    assert.equal((await acceptQuote(c, q.quoteId, t1)).status, 201);
    assertError(await acceptQuote(c, q.quoteId, t1), 409, "quote.invalid");
    assertError(await acceptQuote(c, q.quoteId, t2), 409, "quote.invalid");
  });

  test("a refused accept (bad purpose) does not use up the token", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const token = await disclosureToken(c, q.quoteId);
    assertIssue(await acceptQuote(c, q.quoteId, token, { purposeOfTransfer: "LOTTERY" }), "purposeOfTransfer", "validation.fieldInvalid");
    assert.equal((await acceptQuote(c, q.quoteId, token)).status, 201);
  });

  test("missing disclosureToken → 400 validation.fieldMissing", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const { call } = await import("../support/client");
    const res = await call("POST", `/v1/core/quotes/${q.quoteId}/accept`, { token: c.token, body: { purposeOfTransfer: "FAMILY_SUPPORT" } });
    assertIssue(res, "disclosureToken", "validation.fieldMissing");
  });

  test("unknown quote → 404 quote.notFound", async () => {
    assertError(await acceptQuote(c, "quo_doesnotexist000000000000", "dt_x"), 404, "quote.notFound");
  });

  test("the beneficiary became BLOCKED after the quote → 403 beneficiary.stateBlocking; nothing accepted", async () => {
    const b = await validBeneficiary(c);
    const q = await serviceQuote(c, b.beneficiaryId);
    const token = await disclosureToken(c, q.quoteId);
    assert.equal((await forceScreening(c, b.beneficiaryId, "BLOCKED")).status, 200);
    const error = assertError(await acceptQuote(c, q.quoteId, token), 403, "beneficiary.stateBlocking");
    assert.equal(error.details.currentState, "BLOCKED");
    assert.equal((await readQuote(c, q.quoteId)).body.status, "AVAILABLE");
    // Cleared by the operator: the same token now accepts.
    assert.equal((await forceScreening(c, b.beneficiaryId, "VALID")).status, 200);
    assert.equal((await acceptQuote(c, q.quoteId, token)).status, 201);
  });

  test("RESTRICTED customer → 403 customer.statusBlocking (gate precedes the lookup)", async () => {
    // No sandbox route turns a VALID customer (who could hold a quote) RESTRICTED, so the gate is
    // exercised with a RESTRICTED customer's own accept call on an id: it must refuse before 404.
    const r = await restrictedCustomer();
    const error = assertError(await acceptQuote(r, "quo_doesnotexist000000000000", "dt_x"), 403, "customer.statusBlocking");
    assert.deepEqual(error.details, { currentStatus: "RESTRICTED", remediationHint: "complete_kyc" });
    assert.equal(error.remediation, "complete_kyc");
  });

  test("N=8 parallel accepts of one quote with different keys → exactly one 201, seven 409 quote.invalid", async () => {
    const fresh = await validCustomer();
    const b = await validBeneficiary(fresh);
    const q = await serviceQuote(fresh, b.beneficiaryId);
    const tokens: string[] = [];
    for (let i = 0; i < 8; i++) tokens.push(await disclosureToken(fresh, q.quoteId));
    const results = await Promise.all(tokens.map((t) => acceptQuote(fresh, q.quoteId, t)));
    const created = results.filter((r) => r.status === 201);
    assert.equal(created.length, 1, results.map((r) => `${r.status} ${r.text}`).join("\n"));
    for (const r of results.filter((x) => x.status !== 201)) {
      const error = assertError(r, 409, "quote.invalid");
      assert.deepEqual(error.details, { failedCheck: "alreadyAccepted" });
    }
    const transferIds = new Set(results.filter((r) => r.status === 201).map((r) => r.body.transferId));
    assert.equal(transferIds.size, 1);
    assert.equal((await readQuote(fresh, q.quoteId)).body.status, "ACCEPTED");
    // The beneficiary was used once: still listed, with lastUsedAt.
    const list = await listBeneficiaries(fresh);
    assert.equal(list.body.items.length, 1);
    assert.match(list.body.items[0].lastUsedAt, ISO);
  });

  test("N=8 parallel accepts with ONE key and one token → one transfer; 201s identical, the rest 409 idempotency.conflict", async () => {
    const fresh = await validCustomer();
    const b = await validBeneficiary(fresh);
    const q = await serviceQuote(fresh, b.beneficiaryId);
    const token = await disclosureToken(fresh, q.quoteId);
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 8 }, () => acceptQuote(fresh, q.quoteId, token, { idempotencyKey: key })));
    const created = results.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    for (const r of created) assert.equal(r.text, created[0]!.text);
    for (const r of results.filter((x) => x.status !== 201)) {
      const error = assertError(r, 409, "idempotency.conflict");
      assert.equal(error.hint, "retry_later");
    }
    const replay = await acceptQuote(fresh, q.quoteId, token, { idempotencyKey: key });
    assert.equal(replay.status, 201);
    assert.equal(replay.text, created[0]!.text);
  });
});
