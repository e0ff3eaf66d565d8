/**
 * Service-priced quotes (spec 2.5, 3.4, 4.1 rule 3, 5.4, 8; decisions 6): shape, lifetimes, the
 * service's signedQuote (JWKS, JCS payload, every claim), validation, beneficiary and customer
 * gating, corridor payout methods, reads, scope and expiry.
 */
import { randomUUID } from "node:crypto";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import canonicalize from "canonicalize";
import Decimal from "decimal.js";
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose";
import {
  call,
  acceptQuote,
  advanceClock,
  archiveBeneficiary,
  assertError,
  assertIssue,
  assertIssues,
  blockedCustomer,
  createBeneficiary,
  createQuote,
  forceScreening,
  mexBeneficiary,
  pendingCustomer,
  quoteBody,
  readBeneficiary,
  readDisclosure,
  readQuote,
  restrictedCustomer,
  screenedBeneficiary,
  serverNow,
  serviceQuote,
  validBeneficiary,
  validCustomer,
  type Customer,
} from "../support";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const SIX = /^(0|[1-9]\d*)\.\d{6}$/;
const QUOTE_KEYS = [
  "corridor",
  "destinationAmount",
  "destinationCurrency",
  "estimatedDeliveryBy",
  "fxRate",
  "originAmount",
  "originCurrency",
  "partnerFee",
  "principalFee",
  "quoteId",
  "quoteValidUntil",
  "signedQuote",
  "status",
  "totalCustomerCost",
  "totalCustomerCostCurrency",
].sort();
const CLAIMS = [
  "beneficiary_country",
  "beneficiary_currency",
  "corridor",
  "corridor_type",
  "exp",
  "expires_at",
  "fx_rate",
  "iat",
  "issued_at",
  "jti",
  "partner_fee",
  "partner_id",
  "partner_quote_seq",
  "principal_fee",
  "quote_id",
  "quote_signature_v1",
  "receive_amount",
  "receive_currency",
  "send_amount",
  "send_currency",
  "subscription_id",
  "total_consumer_cost",
].sort();

/** Exact decimal arithmetic on strings (micro-units) for the consistency checks. */
const micros = (s: string): bigint => {
  const [i, f = ""] = s.split(".");
  return BigInt(i!) * 1_000_000n + BigInt((f + "000000").slice(0, 6));
};

async function verifiedClaims(signedQuote: string): Promise<{ claims: any; payloadText: string }> {
  const jwks = await call("GET", "/.well-known/jwks.json", { key: null });
  assert.equal(jwks.status, 200, jwks.text);
  for (const k of jwks.body.keys) {
    assert.equal(k.kty, "RSA");
    assert.equal(k.use, "sig");
    assert.equal(k.alg, "RS256");
    assert.equal(typeof k.kid, "string");
    assert.equal(k.d, undefined, "private key material published");
  }
  const header = decodeProtectedHeader(signedQuote);
  assert.deepEqual(Object.keys(header).sort(), ["alg", "kid", "typ"]);
  assert.equal(header.alg, "RS256");
  assert.equal(header.typ, "JWT");
  assert.ok(
    jwks.body.keys.some((k: any) => k.kid === header.kid),
    "kid not in the JWKS",
  );
  const { payload } = await compactVerify(signedQuote, createLocalJWKSet(jwks.body), { algorithms: ["RS256"] });
  const payloadText = new TextDecoder().decode(payload);
  return { claims: JSON.parse(payloadText), payloadText };
}

let c: Customer;
let ben: any;
before(async () => {
  c = await validCustomer();
  ben = await validBeneficiary(c);
});

describe("create (200)", () => {
  test("QuoteResponse fields of spec 2.5 + corridor + status AVAILABLE; amounts consistent", async () => {
    const before = await serverNow();
    const res = await createQuote(c, quoteBody(ben.beneficiaryId));
    const after = await serverNow();
    assert.equal(res.status, 200, res.text);
    const q = res.body;
    assert.deepEqual(Object.keys(q).sort(), QUOTE_KEYS, res.text);
    assert.match(q.quoteId, /^\S+$/);
    assert.equal(q.originAmount, "100.000000");
    assert.equal(q.originCurrency, "USD");
    assert.equal(q.destinationCurrency, "MXN");
    assert.equal(q.totalCustomerCostCurrency, "USD");
    for (const f of ["originAmount", "destinationAmount", "principalFee", "partnerFee", "totalCustomerCost"]) assert.match(q[f], SIX, f);
    assert.match(q.fxRate, /^\d+\.\d+$/);
    assert.equal(q.principalFee, "2.990000");
    assert.equal(q.partnerFee, "0.000000");
    assert.equal(micros(q.totalCustomerCost), micros(q.originAmount) + micros(q.principalFee) + micros(q.partnerFee));
    // fx within the sandbox reference band: mid 18.75 ± 0.2%.
    const rate = Number(q.fxRate);
    assert.ok(rate >= 18.75 * 0.998 - 1e-9 && rate <= 18.75 * 1.002 + 1e-9, q.fxRate);
    // destinationAmount = origin × rate, rounded half-even to centavos (decimal arithmetic, as the service).
    const expectedDest = new Decimal(q.originAmount).times(q.fxRate).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed(6);
    assert.equal(q.destinationAmount, expectedDest);
    assert.match(q.destinationAmount, /\.\d{2}0000$/);
    assert.deepEqual(q.corridor, { originCountry: "USA", destinationCountry: "MEX", payoutMethod: "bank_account", fundingMethods: ["CARD", "BANK_TRANSFER"] });
    assert.equal(q.status, "AVAILABLE");
    // quoteValidUntil ≈ 60 s after creation.
    assert.match(q.quoteValidUntil, ISO);
    const validUntil = Date.parse(q.quoteValidUntil);
    assert.ok(
      validUntil - before.getTime() <= 61_000 && validUntil - after.getTime() >= 58_000,
      `${q.quoteValidUntil} vs ${before.toISOString()}..${after.toISOString()}`,
    );
  });

  test("signedQuote verifies against GET /.well-known/jwks.json; payload is JCS with every spec 5.4 claim", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId, { originAmount: "250.500000" });
    const { claims, payloadText } = await verifiedClaims(q.signedQuote);
    assert.equal(payloadText, canonicalize(JSON.parse(payloadText)), "payload is not JCS-canonical");
    assert.deepEqual(Object.keys(claims).sort(), CLAIMS);
    assert.equal(claims.quote_signature_v1, "v1");
    assert.equal(claims.quote_id, q.quoteId);
    assert.equal(typeof claims.jti, "string");
    assert.ok(claims.jti.length > 0);
    assert.equal(claims.partner_id, "partner_demo");
    assert.ok(Number.isSafeInteger(claims.partner_quote_seq) && claims.partner_quote_seq > 0);
    assert.equal(claims.subscription_id, c.subscriptionId);
    assert.equal(claims.send_currency, "USD");
    assert.equal(claims.receive_currency, "MXN");
    assert.equal(claims.beneficiary_country, "MX");
    assert.equal(claims.beneficiary_currency, "MXN");
    assert.equal(claims.corridor, "US-MX");
    assert.equal(claims.corridor_type, "OPEN_PAYMENT");
    for (const f of ["send_amount", "receive_amount", "fx_rate", "partner_fee", "principal_fee", "total_consumer_cost"]) {
      assert.equal(typeof claims[f], "string", f);
      assert.match(claims[f], /^(0|[1-9]\d*)(\.\d+)?$/, f);
    }
    // The claims and the response say the same thing.
    assert.equal(micros(claims.send_amount), micros(q.originAmount));
    assert.equal(micros(claims.receive_amount), micros(q.destinationAmount));
    assert.equal(claims.fx_rate, q.fxRate);
    assert.equal(micros(claims.principal_fee), micros(q.principalFee));
    assert.equal(micros(claims.partner_fee), micros(q.partnerFee));
    assert.equal(micros(claims.total_consumer_cost), micros(q.totalCustomerCost));
    assert.equal(micros(claims.total_consumer_cost), micros(claims.send_amount) + micros(claims.principal_fee) + micros(claims.partner_fee));
    assert.equal(micros(q.totalCustomerCost), micros("253.490000"));
    // Times: integers and RFC 3339 strings naming the same instants; 60 s; exp = quoteValidUntil.
    assert.ok(Number.isSafeInteger(claims.iat) && Number.isSafeInteger(claims.exp));
    assert.equal(claims.exp - claims.iat, 60);
    assert.equal(Date.parse(claims.issued_at), claims.iat * 1000);
    assert.equal(Date.parse(claims.expires_at), claims.exp * 1000);
    assert.match(claims.issued_at, ISO);
    assert.match(claims.expires_at, ISO);
    assert.equal(Date.parse(q.quoteValidUntil), claims.exp * 1000);
  });

  test("each quote has its own quote_id, jti and a higher partner_quote_seq", async () => {
    const a = await serviceQuote(c, ben.beneficiaryId);
    const b = await serviceQuote(c, ben.beneficiaryId);
    const ca = (await verifiedClaims(a.signedQuote)).claims;
    const cb = (await verifiedClaims(b.signedQuote)).claims;
    assert.notEqual(a.quoteId, b.quoteId);
    assert.notEqual(ca.jti, cb.jti);
    assert.ok(cb.partner_quote_seq > ca.partner_quote_seq);
  });

  test("cash_pickup quote: corridor payoutMethod cash_pickup, corridor_type OFFLINE, valid ≈ 1800 s", async () => {
    const before = await serverNow();
    const q = await serviceQuote(c, ben.beneficiaryId, { payoutMethod: "cash_pickup" });
    assert.deepEqual(q.corridor, { originCountry: "USA", destinationCountry: "MEX", payoutMethod: "cash_pickup", fundingMethods: ["CARD", "BANK_TRANSFER"] });
    const validFor = Date.parse(q.quoteValidUntil) - before.getTime();
    assert.ok(validFor > 1795_000 && validFor <= 1801_000, `${validFor} ms`);
    const { claims } = await verifiedClaims(q.signedQuote);
    assert.equal(claims.corridor_type, "OFFLINE");
    assert.equal(claims.exp - claims.iat, 1800);
  });

  test("payoutMethod bank_account explicitly: 60 s, OPEN_PAYMENT", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId, { payoutMethod: "bank_account" });
    assert.equal(q.corridor.payoutMethod, "bank_account");
    const { claims } = await verifiedClaims(q.signedQuote);
    assert.equal(claims.exp - claims.iat, 60);
  });

  test("a MONITORED beneficiary may be quoted", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Olga", lastName: "Watchlistov" }));
    assert.equal(b.state, "MONITORED");
    const res = await createQuote(c, quoteBody(b.beneficiaryId));
    assert.equal(res.status, 200, res.text);
  });

  test("same Idempotency-Key → the same quote, replayed byte for byte", async () => {
    const key = crypto.randomUUID();
    const first = await createQuote(c, quoteBody(ben.beneficiaryId), { idempotencyKey: key });
    assert.equal(first.status, 200, first.text);
    const again = await createQuote(c, quoteBody(ben.beneficiaryId), { idempotencyKey: key });
    assert.equal(again.status, 200);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
  });
});

describe("validation", () => {
  for (const amount of ["100", "100.00", "100.0000000", "1e2", "-100.000000", "100,000000", " 100.000000"]) {
    test(`originAmount ${JSON.stringify(amount)} (not six decimals) → 400 on originAmount`, async () => {
      assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { originAmount: amount })), "originAmount", "validation.fieldFormatInvalid");
    });
  }

  test("originAmount as a number → 400 validation.fieldInvalid on originAmount", async () => {
    assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { originAmount: 100 })), "originAmount", "validation.fieldInvalid");
  });

  test("originAmount 0.000000 → 400 validation.fieldInvalid on originAmount", async () => {
    assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { originAmount: "0.000000" })), "originAmount", "validation.fieldInvalid");
  });

  test("below the corridor's minimum (0.010000, 14.990000 USD on US-MX) → 400 validation.fieldInvalid on originAmount naming it; the minimum is quoted (issue 20 item 7)", async () => {
    for (const originAmount of ["0.010000", "14.990000"]) {
      const res = await createQuote(c, quoteBody(ben.beneficiaryId, { originAmount }));
      assertIssue(res, "originAmount", "validation.fieldInvalid");
      assert.match(res.body.error.details.issues[0].message, /minimum of 15\.00 USD/, res.text);
    }
    const q = await serviceQuote(c, ben.beneficiaryId, { originAmount: "15.000000" });
    assert.equal(q.originAmount, "15.000000");
  });

  test("originAmount with sub-cent precision for USD (100.123456) → 400, issue fieldFormatInvalid on originAmount", async () => {
    // The summary is the issues' common code, as for schema validation.
    assertIssues(await createQuote(c, quoteBody(ben.beneficiaryId, { originAmount: "100.123456" })), "validation.fieldFormatInvalid", [
      { field: "originAmount", code: "validation.fieldFormatInvalid" },
    ]);
  });

  test("originAmount 100.120000 (zeros below the cent) is accepted", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId, { originAmount: "100.120000" });
    assert.equal(q.originAmount, "100.120000");
  });

  test("missing originAmount → 400 validation.fieldMissing", async () => {
    const { originAmount: _omit, ...body } = quoteBody(ben.beneficiaryId);
    assertIssue(await createQuote(c, body), "originAmount", "validation.fieldMissing");
  });

  test("wrong originCurrency (EUR on US-MX) → 400 validation.fieldInvalid on originCurrency", async () => {
    assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { originCurrency: "EUR" })), "originCurrency", "validation.fieldInvalid");
  });

  test("wrong destinationCurrency (PHP on US-MX) → 400 validation.fieldInvalid on destinationCurrency", async () => {
    assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { destinationCurrency: "PHP" })), "destinationCurrency", "validation.fieldInvalid");
  });

  test("originCurrency not a currency code shape → 400 on originCurrency", async () => {
    assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { originCurrency: "usd" })), "originCurrency", "validation.fieldFormatInvalid");
  });

  test("payoutMethod wallet_transfer (not on US-MX) → 400 validation.methodNotAvailableForCorridor", async () => {
    assertIssue(
      await createQuote(c, quoteBody(ben.beneficiaryId, { payoutMethod: "wallet_transfer" })),
      "payoutMethod",
      "validation.methodNotAvailableForCorridor",
    );
    assertIssue(
      await createQuote(c, quoteBody(ben.beneficiaryId, { payoutMethod: "mobile_money" })),
      "payoutMethod",
      "validation.methodNotAvailableForCorridor",
    );
  });

  test("payoutMethod not a corridor identifier (BANK_TRANSFER) → 400 on payoutMethod", async () => {
    assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { payoutMethod: "BANK_TRANSFER" })), "payoutMethod", "validation.fieldInvalid");
  });

  test("partnerQuote from a SERVICE_PRICED partner → 400 validation.fieldInvalid on partnerQuote", async () => {
    assertIssue(await createQuote(c, quoteBody(ben.beneficiaryId, { partnerQuote: "a.b.c" })), "partnerQuote", "validation.fieldInvalid");
  });

  test("unknown beneficiary → 404 beneficiary.notFound", async () => {
    assertError(await createQuote(c, quoteBody("ben_doesnotexist000000000000")), 404, "beneficiary.notFound");
  });

  test("another customer's beneficiary → 404 beneficiary.notFound", async () => {
    const other = await validCustomer();
    assertError(await createQuote(other, quoteBody(ben.beneficiaryId)), 404, "beneficiary.notFound");
  });
});

describe("beneficiary state (spec 3.2)", () => {
  test("PENDING → 403 beneficiary.stateInsufficient, remediation await_beneficiary_verification", async () => {
    // Quoted right after create, well before SCREENING_DELAY_MS. Should screening still win the
    // race, the quote is 200 for a non-PENDING record; try again with a fresh one.
    for (let attempt = 1; ; attempt++) {
      const created = await createBeneficiary(c, mexBeneficiary());
      assert.equal(created.status, 202, created.text);
      const res = await createQuote(c, quoteBody(created.body.beneficiaryId));
      if (res.status === 200 && attempt < 5) {
        assert.notEqual((await readBeneficiary(c, created.body.beneficiaryId)).body.state, "PENDING");
        continue;
      }
      const error = assertError(res, 403, "beneficiary.stateInsufficient");
      assert.equal(error.remediation, "await_beneficiary_verification");
      assert.deepEqual(error.details, {
        beneficiaryId: created.body.beneficiaryId,
        currentState: "PENDING",
        remediationHint: "await_beneficiary_verification",
      });
      return;
    }
  });

  test("BLOCKED → 403 beneficiary.stateBlocking, remediation select_different_beneficiary", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    assert.equal(b.state, "BLOCKED");
    const error = assertError(await createQuote(c, quoteBody(b.beneficiaryId)), 403, "beneficiary.stateBlocking");
    assert.equal(error.remediation, "select_different_beneficiary");
    assert.deepEqual(error.details, { beneficiaryId: b.beneficiaryId, currentState: "BLOCKED", remediationHint: "select_different_beneficiary" });
  });

  test("the BLOCKED 403 (which flags the customer, issue 19) keeps its Idempotency-Key exactly as the ARCHIVED 403 does", async () => {
    const blocked = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    const archived = await validBeneficiary(c);
    assert.equal((await archiveBeneficiary(c, archived.beneficiaryId)).status, 200);
    const ok = await validBeneficiary(c);
    // Per beneficiary: the first answer, the same request replayed, and the key reused for another body.
    const answers = async (beneficiaryId: string) => {
      const key = randomUUID();
      const first = await createQuote(c, quoteBody(beneficiaryId), { idempotencyKey: key });
      const same = await createQuote(c, quoteBody(beneficiaryId), { idempotencyKey: key });
      const other = await createQuote(c, quoteBody(ok.beneficiaryId), { idempotencyKey: key });
      return [first, same, other].map((r) => [r.status, (r.body as { error?: { code?: string } })?.error?.code, r.headers.get("idempotent-replayed")]);
    };
    const onBlocked = await answers(blocked.beneficiaryId);
    assert.equal(onBlocked[0][1], "beneficiary.stateBlocking");
    assert.deepEqual(onBlocked, await answers(archived.beneficiaryId));
  });

  test("ARCHIVED → 403 beneficiary.stateBlocking", async () => {
    const b = await validBeneficiary(c);
    assert.equal((await archiveBeneficiary(c, b.beneficiaryId)).status, 200);
    const error = assertError(await createQuote(c, quoteBody(b.beneficiaryId)), 403, "beneficiary.stateBlocking");
    assert.deepEqual(error.details, { beneficiaryId: b.beneficiaryId, currentState: "ARCHIVED", remediationHint: "select_different_beneficiary" });
  });

  test("BLOCKED then cleared by the operator (sandbox) → quotable again", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    assert.equal((await forceScreening(c, b.beneficiaryId, "VALID")).status, 200);
    assert.equal((await createQuote(c, quoteBody(b.beneficiaryId))).status, 200);
  });

  test("a beneficiary in a country without a corridor from the USA → 422 quote.corridorUnavailable", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ countryOfResidence: "JPN" }));
    assert.equal(b.state, "VALID");
    const res = await createQuote(c, quoteBody(b.beneficiaryId, { destinationCurrency: "JPY" }));
    const error = assertError(res, 422, "quote.corridorUnavailable");
    assert.deepEqual(error.details, { originCountry: "USA", destinationCountry: "JPN" });
  });
});

describe("customer status (spec 3.5)", () => {
  test("PENDING customer (profile, no KYC) → 403 customer.statusInsufficient, complete_kyc", async () => {
    const p = await pendingCustomer();
    const error = assertError(await createQuote(p, quoteBody(ben.beneficiaryId)), 403, "customer.statusInsufficient");
    assert.deepEqual(error.details, { currentStatus: "PENDING", remediationHint: "complete_kyc" });
  });

  test("RESTRICTED customer → 403 customer.statusBlocking, complete_kyc", async () => {
    const r = await restrictedCustomer();
    const error = assertError(await createQuote(r, quoteBody("ben_any000000000000000000000")), 403, "customer.statusBlocking");
    assert.deepEqual(error.details, { currentStatus: "RESTRICTED", remediationHint: "complete_kyc" });
  });
});

describe("read", () => {
  test("GET quote: the created quote, status AVAILABLE", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const res = await readQuote(c, q.quoteId);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, q);
  });

  test("another customer's quote → 404 quote.notFound, like a missing one", async () => {
    const q = await serviceQuote(c, ben.beneficiaryId);
    const other = await validCustomer();
    const foreign = assertError(await readQuote(other, q.quoteId), 404, "quote.notFound");
    const missing = assertError(await readQuote(other, "quo_doesnotexist000000000000"), 404, "quote.notFound");
    assert.deepEqual(foreign, missing);
    assertError(await readDisclosure(other, q.quoteId), 404, "quote.notFound");
    assertError(await acceptQuote(other, q.quoteId, "dt_whatever"), 404, "quote.notFound");
  });

  test("a RESTRICTED customer may read quotes (spec 3.5): unknown id → 404, not 403", async () => {
    const r = await restrictedCustomer();
    assertError(await readQuote(r, "quo_doesnotexist000000000000"), 404, "quote.notFound");
  });

  test("a BLOCKED customer may not read quotes (spec 3.5): 403 customer.statusBlocking, contact_support", async () => {
    const blocked = await blockedCustomer();
    const error = assertError(await readQuote(blocked, "quo_doesnotexist000000000000"), 403, "customer.statusBlocking");
    assert.deepEqual(error.details, { currentStatus: "BLOCKED", remediationHint: "contact_support" });
    assertError(await readDisclosure(blocked, "quo_doesnotexist000000000000"), 403, "customer.statusBlocking");
    assertError(await createQuote(blocked, quoteBody("ben_any000000000000000000000")), 403, "customer.statusBlocking");
  });

  test("a PENDING customer may read quotes (spec 3.5): unknown id → 404, not 403", async () => {
    const p = await pendingCustomer();
    assertError(await readQuote(p, "quo_doesnotexist000000000000"), 404, "quote.notFound");
  });
});

describe("expiry (spec 3.4)", () => {
  test("after 61 s: status EXPIRED, disclosure 410 quote.expired, accept 422 quote.expired", async () => {
    const fresh = await validCustomer();
    const b = await validBeneficiary(fresh);
    const q = await serviceQuote(fresh, b.beneficiaryId);
    const token = (await readDisclosure(fresh, q.quoteId)).body.disclosureToken;
    assert.equal(typeof token, "string");
    const cash = await serviceQuote(fresh, b.beneficiaryId, { payoutMethod: "cash_pickup" });

    await advanceClock(61);

    const read = await readQuote(fresh, q.quoteId);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, "EXPIRED");
    assert.equal(read.body.quoteValidUntil, q.quoteValidUntil);

    // QuoteExpiredDetails; no retry_later (spec 7: never retry quote.expired blindly).
    const disclosure = assertError(await readDisclosure(fresh, q.quoteId), 410, "quote.expired");
    assert.deepEqual(disclosure.details, { quoteId: q.quoteId, quoteExpiredAt: q.quoteValidUntil });
    assert.equal(disclosure.hint, "create_new_quote");
    assert.notEqual(disclosure.remediation, "retry_later");

    const accept = assertError(await acceptQuote(fresh, q.quoteId, token), 422, "quote.expired");
    assert.deepEqual(accept.details, { quoteId: q.quoteId, quoteExpiredAt: q.quoteValidUntil });
    assert.equal(accept.hint, "create_new_quote");
    // No transfer was made: the beneficiary is still never-used.
    assert.equal((await readBeneficiary(fresh, b.beneficiaryId)).body.lastUsedAt, null);

    // The 30-minute cash_pickup quote is still available.
    const stillCash = await readQuote(fresh, cash.quoteId);
    assert.equal(stillCash.body.status, "AVAILABLE");
    assert.equal((await readDisclosure(fresh, cash.quoteId)).status, 200);
  });
});
