/**
 * The rules every route shares, written once and run against every contract of lib/interface/api/contracts
 * (STYLE.md: unkey's common tests, formbricks' cross-tenant specs): a missing subscription key is
 * 401 auth.subscriptionKeyInvalid; a bad bearer token on a customer route is 401 auth.tokenInvalid;
 * another subscription's resource id is 404 <resource>.notFound, as if it did not exist (customer
 * B of the same partner, and on PostgreSQL a customer of another partner); a method the path does
 * not serve is 405 route.methodNotAllowed with an Allow header.
 *
 * Not covered, and why:
 * - Another partner's customer (the cross-partner 404 loop) runs on PostgreSQL only: a second
 *   partner is created by the operator console, which tests reach through the database, and the
 *   PGlite database is held by the server process alone.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { allContracts } from "@/lib/interface/api/contracts";
import type { Contract, HttpMethod } from "@/lib/interface/http/contract";
import {
  acceptQuote,
  awaitFastCheck,
  assertError,
  awaitStatus,
  call,
  confirmNow,
  decideKyc,
  disclosureToken,
  pendingCustomer,
  registerCustomer,
  registerDevice,
  serviceQuote,
  submit,
  submitBody,
  validBeneficiaryId,
  validCustomer,
  type CallResult,
  type Customer,
} from "../support";
import { newPartnerKey, serverDatabaseAvailable } from "../support/database";

const METHODS: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const label = (c: Contract) => `${c.method} ${c.path}`;
const paramNames = (c: Contract) => [...c.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** The path with every {param} replaced by `ids[param]`, or by an id no subscription owns. */
const pathOf = (c: Contract, ids: Record<string, string> = {}) =>
  c.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? `${name}_unknown`));

/** A valid body per operation with a resource id, so the ownership check, not validation, answers. */
function bodyFor(c: Contract, a: Owner): unknown {
  const bodies: Record<string, unknown> = {
    sandboxCompleteKycSession: { outcome: "APPROVED" },
    sandboxBeneficiaryScreening: { outcome: "VALID" },
    acceptQuote: { disclosureToken: a.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
    cancelTransfer: { cancellationReason: "CUSTOMER_REQUEST" },
    confirmTransfer: { deviceAssertion: "eyJhbGciOiJSUzI1NiJ9.e30.c2lnbmF0dXJl" },
    submitTransfer: submitBody(a.ids.beneficiaryId),
    sandboxAdvanceTransfer: { to: "topay" },
    sandboxCompleteFunding: { outcome: "SUCCEEDED" },
    sandboxComplianceHold: {},
    sandboxComplianceRelease: { resolution: "RESTORE" },
    sandboxNetworkCancellation: { outcome: "NETWORK_CANCELLATION_SUCCESS" },
    sandboxReview: { decision: "APPROVE" },
    repairPayout: { payoutMethod: submitBody(a.ids.beneficiaryId).payoutMethod },
    createClaim: { type: "NOT_RECEIVED", description: "The money has not arrived." },
  };
  if (!c.body) return undefined;
  assert.ok(c.operationId in bodies, `${c.operationId} takes a body: add a valid one to bodyFor`);
  return bodies[c.operationId];
}

/** Customer A: one resource of every kind a path names (a transfer in funding, so it has a funding session). */
interface Owner {
  customer: Customer;
  ids: Record<string, string>;
  disclosureToken: string;
}

async function owner(): Promise<Owner> {
  const c = await pendingCustomer();
  const kycSessionId = await decideKyc(c, "APPROVED");
  await awaitStatus(c, "VALID");
  const [device, beneficiaryId] = await Promise.all([registerDevice(c), validBeneficiaryId(c)]);
  const quote = await serviceQuote(c, beneficiaryId);
  const token = await disclosureToken(c, quote.quoteId);
  const accepted = await acceptQuote(c, quote.quoteId, token);
  assert.equal(accepted.status, 201, accepted.text);
  const transferId = accepted.body.transferId;
  const submitted = await submit(c, transferId, submitBody(beneficiaryId));
  assert.equal(submitted.status, 202, submitted.text);
  assert.equal((await awaitFastCheck(c, transferId)).transferStatus, "validated");
  const confirmed = await confirmNow({ customer: c, device }, transferId);
  const events = await call("GET", "/v1/core/events?limit=1", { token: c.token });
  assert.equal(events.status, 200, events.text);
  const ids = {
    deviceId: device.deviceId,
    kycSessionId,
    beneficiaryId,
    quoteId: quote.quoteId,
    transferId,
    fundingSessionId: confirmed.fundingSession.fundingSessionId,
    eventId: events.body.items[0].eventId,
  };
  return { customer: c, ids, disclosureToken: token };
}

/** A VALID customer of the partner owning `key` (every gate passes, so only ownership can refuse). */
async function validCustomerOf(key: string): Promise<{ token: string; key: string }> {
  const { tokens } = await registerCustomer(undefined, undefined, key);
  const token = tokens.accessToken;
  const profile = await call("POST", "/v1/core/profile", {
    key,
    token,
    body: {
      firstName: "Ana",
      lastName: "Otherpartner",
      dateOfBirth: "1988-03-14",
      nationality: "USA",
      residenceCountry: "USA",
      residenceAddress: { addressLine1: "1 Main Street", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
    },
  });
  assert.equal(profile.status, 200, profile.text);
  const kyc = await call("POST", "/v1/core/kyc-sessions", { key, token });
  assert.equal(kyc.status, 200, kyc.text);
  const done = await call("POST", `/v1/sandbox/kyc-sessions/${kyc.body.kycSessionId}/complete`, { key, token, body: { outcome: "APPROVED" } });
  assert.equal(done.status, 200, done.text);
  return { token, key };
}

const withResourceId = allContracts.filter((c) => paramNames(c).length > 0);

/** Asserts 404 <resource>.notFound, a code the contract documents. */
function assertNotFound(c: Contract, res: CallResult) {
  assert.equal(res.status, 404, `${label(c)}: expected 404, got ${res.status}: ${res.text}`);
  const code: string = res.body.error.code;
  assert.match(code, /\.notFound$/, res.text);
  assert.ok((c.errors as readonly string[]).includes(code), `${label(c)} answers ${code}, which its contract does not list`);
  assertError(res, 404, code);
}

let a: Owner;
let b: Customer;

before(async () => {
  [a, b] = await Promise.all([owner(), validCustomer()]);
});

/** The public operations, each with its reason: they answer without a key. */
const PUBLIC: Record<string, string> = {
  serviceJwks: "anyone verifying a signedQuote reads the keys (spec 5.4)",
  livez: "a supervisor's probe holds no secret",
  readyz: "a load balancer's probe holds no secret",
};

describe("every route: a missing subscription key is 401 auth.subscriptionKeyInvalid", () => {
  for (const c of allContracts) {
    test(label(c), async () => {
      if (PUBLIC[c.operationId]) {
        assert.equal(c.auth, "none", `${label(c)} is listed as public`);
        const res = await call(c.method, pathOf(c), { key: null });
        assert.ok([200, 503].includes(res.status), `${label(c)} without a key: ${res.status} ${res.text}`);
        return;
      }
      assert.notEqual(c.auth, "none", `${label(c)} is public: list it here with the reason`);
      // A's valid token: only the key is missing.
      const res = await call(c.method, pathOf(c), { key: null, token: a.customer.token, body: c.body ? {} : undefined });
      assertError(res, 401, "auth.subscriptionKeyInvalid");
    });
  }
});

describe("every customer route: a bad bearer token is 401 auth.tokenInvalid", () => {
  for (const c of allContracts.filter((x) => x.auth === "customer")) {
    test(label(c), async () => {
      const flipped = a.customer.token.slice(0, -2) + (a.customer.token.endsWith("AA") ? "BB" : "AA");
      for (const token of ["not-a-token", flipped]) {
        const res = await call(c.method, pathOf(c), { token, body: c.body ? {} : undefined });
        assertError(res, 401, "auth.tokenInvalid");
      }
    });
  }
});

describe("every route with a resource id: another subscription's id is 404, as if it did not exist", () => {
  for (const c of withResourceId) {
    test(label(c), async () => {
      const res = await call(c.method, pathOf(c, a.ids), { token: b.token, body: bodyFor(c, a) });
      assertNotFound(c, res);
    });
  }
});

if (serverDatabaseAvailable) {
  describe("every route with a resource id: another partner's customer gets 404", () => {
    let d: { token: string; key: string };
    before(async () => {
      const key = await newPartnerKey();
      assert.ok(key);
      d = await validCustomerOf(key);
      // The other partner's customer must pass every gate, so only ownership refuses.
      const profile = await call("GET", "/v1/core/profile", { key: d.key, token: d.token });
      assert.equal(profile.status, 200, profile.text);
    });
    for (const c of withResourceId) {
      test(label(c), async () => {
        const res = await call(c.method, pathOf(c, a.ids), { key: d.key, token: d.token, body: bodyFor(c, a) });
        assertNotFound(c, res);
      });
    }
  });
}

describe("every path: a method it does not serve is 405 route.methodNotAllowed with Allow", () => {
  const byPath = new Map<string, Contract[]>();
  for (const c of allContracts) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c]);
  for (const [path, contracts] of byPath) {
    const served = contracts.map((c) => c.method).sort();
    for (const method of METHODS.filter((m) => !served.includes(m))) {
      test(`${method} ${path}`, async () => {
        const res = await call(method, pathOf(contracts[0]), { token: a.customer.token, body: method === "GET" ? undefined : {} });
        const error = assertError(res, 405, "route.methodNotAllowed");
        const allow = (res.headers.get("allow") ?? "")
          .split(",")
          .map((m) => m.trim())
          .sort();
        assert.deepEqual(allow, served, `Allow of ${path}`);
        assert.deepEqual(error.details?.allow?.split(", ").sort(), served);
      });
    }
  }
});

test("the loops above cover every contract", () => {
  assert.ok(allContracts.length >= 40, `only ${allContracts.length} contracts found`);
  const ownerIds = new Set(["deviceId", "kycSessionId", "beneficiaryId", "quoteId", "transferId", "fundingSessionId", "eventId"]);
  for (const c of withResourceId) for (const p of paramNames(c)) assert.ok(ownerIds.has(p), `${label(c)}: customer A owns no {${p}}; add one to owner()`);
});
