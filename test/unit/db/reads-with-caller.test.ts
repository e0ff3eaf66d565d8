/**
 * A customer read runs in its caller's statement (lib/identity/auth/authenticate.ts
 * ReadWithCaller): the route answers with exactly ONE statement sent to the database (counted at
 * the driver's client), the same bytes as the read made on its own after the caller, and the same
 * error order: key, then token, then the gate, then not-found (another customer's resource is not
 * found). A path the read cannot be joined on (invalid) is refused after the caller, as before.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, loginIdentifiers, partnerApiKeys, payoutMethods } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, TRANSFER_TTL_SECONDS, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

interface Caller extends Owner {
  apiKey: string;
  token: string;
}

/** A customer with a subscription key of its partner and an access token. */
async function newCaller(): Promise<Caller> {
  const owner = await newSubscription(db);
  const apiKey = `key_${newId("k")}`;
  const now = clock.now();
  await db
    .insert(partnerApiKeys)
    .values({ id: newId("pak"), partnerId: owner.partnerId, keyHash: sha256Hex(apiKey), keyPrefix: apiKey.slice(0, 8), createdAt: now });
  return { ...owner, apiKey, token: await tokenFor(owner) };
}

/** A new access token of `owner`'s subscription, issued now. */
async function tokenFor(owner: Owner): Promise<string> {
  const { issueTokens } = await import("@/lib/identity/auth/tokens");
  const now = clock.now();
  const issued = await db.transaction((tx) => issueTokens(tx, { subscriptionId: owner.subscriptionId, partnerId: owner.partnerId, now, nextStep: "NONE" }));
  return issued.accessToken;
}

/** Statements sent by the process's database client while `work` runs (postgres.js unsafe, PGlite query). */
async function counted<T>(work: () => Promise<T>): Promise<{ value: T; statements: number; texts: string[] }> {
  const client = (db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const method = typeof client.unsafe === "function" ? "unsafe" : "query";
  // The client's own method (postgres.js's is behind db/named-statements.ts's Proxy, whose get answers a wrapper calling it).
  const original = Object.getOwnPropertyDescriptor(client, method)!.value as (...args: unknown[]) => unknown;
  let statements = 0;
  const texts: string[] = [];
  client[method] = function (this: unknown, ...args: unknown[]) {
    statements++;
    texts.push(String(args[0]));
    return original.apply(this, args);
  };
  try {
    return { value: await work(), statements, texts };
  } finally {
    client[method] = original;
  }
}

type Route = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(route: Route, path: string, params: Record<string, string>, headers: Record<string, string>) {
  const {
    value: res,
    statements,
    texts,
  } = await counted(() => route(new Request(`http://127.0.0.1${path}`, { headers }), { params: Promise.resolve(params) }));
  return { status: res.status, text: await res.text(), statements, texts };
}

const auth = (c: Caller) => ({ "ocp-apim-subscription-key": c.apiKey, authorization: `Bearer ${c.token}` });
const codeOf = (text: string) => (JSON.parse(text) as { error: { code: string } }).error.code;

describe("GET /v1/core/transfers/{id} in one statement with its caller", () => {
  let route: Route;
  before(async () => {
    route = (await import("@/app/v1/core/transfers/[transferId]/route")).GET as Route;
  });

  it("answers the detail with one statement, the same bytes as the read made after the caller", async () => {
    const { readTransfer } = await import("@/lib/payments/transfers/read");
    const caller = await newCaller();
    const t = await registeredTransfer(db, caller);
    const res = await call(route, `/v1/core/transfers/${t.id}`, { transferId: t.id }, auth(caller));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.statements, 1);
    const write = <T>(work: Parameters<Db["transaction"]>[0]) => db.transaction(work) as Promise<T>;
    const alone = await readTransfer(db, write, { subscriptionId: caller.subscriptionId, transferId: t.id, now: clock.now() });
    assert.equal(res.text, JSON.stringify(alone));
  });

  it("answers another customer's transfer, and an unknown one, not found with one statement", async () => {
    const caller = await newCaller();
    const theirs = await registeredTransfer(db);
    for (const id of [theirs.id, "tr_unknown"]) {
      const res = await call(route, `/v1/core/transfers/${id}`, { transferId: id }, auth(caller));
      assert.equal(res.status, 404, res.text);
      assert.equal(codeOf(res.text), "transfer.notFound");
      assert.equal(res.statements, 1);
    }
  });

  it("keeps the error order: key, token, gate, then not-found", async () => {
    const caller = await newCaller();
    const path = { transferId: "tr_unknown" };
    const url = "/v1/core/transfers/tr_unknown";
    const badKey = await call(route, url, path, { ...auth(caller), "ocp-apim-subscription-key": "key_wrong" });
    assert.equal(codeOf(badKey.text), "auth.subscriptionKeyInvalid");
    const noKey = await call(route, url, path, { authorization: `Bearer ${caller.token}` });
    assert.equal(codeOf(noKey.text), "auth.subscriptionKeyInvalid");
    const noToken = await call(route, url, path, { "ocp-apim-subscription-key": caller.apiKey });
    assert.equal(codeOf(noToken.text), "auth.tokenInvalid");
    const badToken = await call(route, url, path, { ...auth(caller), authorization: "Bearer at_wrong" });
    assert.equal(codeOf(badToken.text), "auth.tokenInvalid");
    // Another partner's key with this customer's token: the token is not this partner's.
    const other = await newCaller();
    const crossed = await call(route, url, path, { ...auth(caller), "ocp-apim-subscription-key": other.apiKey });
    assert.equal(crossed.status, 401, crossed.text);
    // A PENDING customer is refused by the gate before its (missing) transfer is looked at.
    await db.update(customers).set({ status: "PENDING" }).where(eq(customers.id, caller.customerId));
    const gated = await call(route, url, path, auth(caller));
    assert.equal(codeOf(gated.text), "customer.statusInsufficient");
    assert.equal(gated.statements, 1);
  });

  it("refuses an invalid path after the caller, as before the join", async () => {
    const caller = await newCaller();
    const long = "t".repeat(65);
    const badKey = await call(route, `/v1/core/transfers/${long}`, { transferId: long }, { ...auth(caller), "ocp-apim-subscription-key": "key_wrong" });
    assert.equal(codeOf(badKey.text), "auth.subscriptionKeyInvalid");
    const invalid = await call(route, `/v1/core/transfers/${long}`, { transferId: long }, auth(caller));
    assert.equal(invalid.status, 400, invalid.text);
  });
});

/**
 * The other single-resource reads: one statement, the same bytes as the read on its own, another
 * customer's resource not found, and the gate before not-found.
 */
describe("the other customer reads in one statement with their caller", () => {
  /** A caller with a transfer (its quote and beneficiary), two payout methods and two login identifiers. */
  async function furnished() {
    const caller = await newCaller();
    const t = await registeredTransfer(db, caller);
    const now = clock.now();
    for (const [i, at] of [addSeconds(now, 2), now].entries()) {
      await db.insert(payoutMethods).values({
        id: newId("pm"),
        beneficiaryId: t.beneficiaryId,
        methodType: "bank_account",
        corridor: "US-MX",
        destinationIdentifierEncrypted: "x",
        destinationIdentifierMasked: `****${i}`,
        addedAt: at,
      });
      await db.insert(loginIdentifiers).values({
        id: newId("lid"),
        partnerId: caller.partnerId,
        subscriptionId: caller.subscriptionId,
        type: "EMAIL",
        value: `${newId("u")}@example.com`,
        verifiedAt: now,
        createdAt: addSeconds(now, -i),
      });
    }
    return { caller, t };
  }

  it("GET /v1/core/beneficiaries/{id}", async () => {
    const route = (await import("@/app/v1/core/beneficiaries/[beneficiaryId]/route")).GET as Route;
    const { beneficiaryDetail } = await import("@/lib/payments/beneficiaries/records");
    const { caller, t } = await furnished();
    const res = await call(route, `/v1/core/beneficiaries/${t.beneficiaryId}`, { beneficiaryId: t.beneficiaryId }, auth(caller));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.statements, 1);
    assert.equal(res.text, JSON.stringify(await beneficiaryDetail(db, caller.subscriptionId, t.beneficiaryId)));
    assert.equal((JSON.parse(res.text) as { payoutMethods: unknown[] }).payoutMethods.length, 2);
    const stranger = await newCaller();
    const theirs = await call(route, `/v1/core/beneficiaries/${t.beneficiaryId}`, { beneficiaryId: t.beneficiaryId }, auth(stranger));
    assert.equal(codeOf(theirs.text), "beneficiary.notFound");
    assert.equal(theirs.statements, 1);
    await db.update(customers).set({ status: "PENDING" }).where(eq(customers.id, stranger.customerId));
    const gated = await call(route, `/v1/core/beneficiaries/${t.beneficiaryId}`, { beneficiaryId: t.beneficiaryId }, auth(stranger));
    assert.equal(codeOf(gated.text), "customer.statusInsufficient");
  });

  it("GET /v1/core/quotes/{id}", async () => {
    const route = (await import("@/app/v1/core/quotes/[quoteId]/route")).GET as Route;
    const { quoteInScope, quoteView } = await import("@/lib/payments/quotes/records");
    const { caller, t } = await furnished();
    const res = await call(route, `/v1/core/quotes/${t.quoteId}`, { quoteId: t.quoteId }, auth(caller));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.statements, 1);
    // The same view but for its delivery estimate, which moves with the clock.
    const { estimatedDeliveryBy: _served, ...served } = JSON.parse(res.text) as Record<string, unknown>;
    const { estimatedDeliveryBy: _alone, ...alone } = JSON.parse(
      JSON.stringify(quoteView(await quoteInScope(db, caller.subscriptionId, t.quoteId), clock.now())),
    );
    assert.equal(served.quoteId, t.quoteId);
    assert.deepEqual(served, alone);
    const stranger = await newCaller();
    const theirs = await call(route, `/v1/core/quotes/${t.quoteId}`, { quoteId: t.quoteId }, auth(stranger));
    assert.equal(codeOf(theirs.text), "quote.notFound");
    assert.equal(theirs.statements, 1);
    await db.update(customers).set({ status: "CLOSED" }).where(eq(customers.id, stranger.customerId));
    const gated = await call(route, `/v1/core/quotes/${t.quoteId}`, { quoteId: t.quoteId }, auth(stranger));
    assert.equal(codeOf(gated.text), "customer.statusBlocking");
  });

  it("GET /v1/core/profile", async () => {
    const route = (await import("@/app/v1/core/profile/route")).GET as Route;
    const { readProfile } = await import("@/lib/identity/customers/profile");
    const { caller } = await furnished();
    const res = await call(route, "/v1/core/profile", {}, auth(caller));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.statements, 1);
    assert.equal(res.text, JSON.stringify(await readProfile(db, { customerId: caller.customerId, subscriptionId: caller.subscriptionId })));
    assert.equal((JSON.parse(res.text) as { identifiers: unknown[] }).identifiers.length, 2);
    // A customer with no identifier yet: its row still comes (the identifiers' join is a LEFT JOIN).
    const bare = await newCaller();
    const alone = await call(route, "/v1/core/profile", {}, auth(bare));
    assert.equal(alone.status, 200, alone.text);
    assert.equal(alone.text, JSON.stringify(await readProfile(db, { customerId: bare.customerId, subscriptionId: bare.subscriptionId })));
    await db.update(customers).set({ status: "CLOSED" }).where(eq(customers.id, bare.customerId));
    const gated = await call(route, "/v1/core/profile", {}, auth(bare));
    assert.equal(codeOf(gated.text), "customer.statusBlocking");
  });
});

describe("GET /v1/core/events in one statement with its caller", () => {
  it("answers each page, its filters and an empty page with one statement, the same bytes as listEvents", async () => {
    const route = (await import("@/app/v1/core/events/route")).GET as Route;
    const { listEvents } = await import("@/lib/partners/events/read");
    const caller = await newCaller();
    for (let i = 0; i < 3; i++) await registeredTransfer(db, caller);
    const since = addSeconds(clock.now(), -60);
    const alone = (q: { after?: number; createdSince?: Date; types?: ["transfer.state.changed"] }) =>
      listEvents(db, { subscriptionId: caller.subscriptionId, limit: 2, ...q }).then((page) => JSON.stringify(page));
    const first = await call(route, "/v1/core/events?limit=2", {}, auth(caller));
    assert.equal(first.status, 200, first.text);
    assert.equal(first.statements, 1);
    assert.equal(first.text, await alone({}));
    const { items, nextCursor } = JSON.parse(first.text) as { items: unknown[]; nextCursor: string };
    assert.equal(items.length, 2);
    assert.ok(nextCursor);
    const next = await call(route, `/v1/core/events?limit=2&after=${nextCursor}&createdSince=${since.toISOString()}`, {}, auth(caller));
    assert.equal(next.statements, 1);
    assert.equal(next.text, await alone({ after: Number(nextCursor), createdSince: since }));
    // A type filter varies in length: read after its caller, with the same answer.
    const typed = await call(route, "/v1/core/events?limit=2&type=transfer.state.changed", {}, auth(caller));
    assert.equal(typed.status, 200, typed.text);
    assert.equal(typed.statements, 2);
    assert.equal(typed.text, await alone({ types: ["transfer.state.changed"] }));
    const none = await call(route, "/v1/core/events?limit=2", {}, auth(await newCaller()));
    assert.equal(none.text, JSON.stringify({ items: [], nextCursor: null }));
    assert.equal(none.statements, 1);
  });
});

describe("GET /v1/core/transfers in one statement with its caller", () => {
  const write = <T>(work: Parameters<Db["transaction"]>[0]) => db.transaction(work) as Promise<T>;

  it("answers the first page, with createdSince, and an empty page with one statement, the same bytes as listTransfers", async () => {
    const route = (await import("@/app/v1/core/transfers/route")).GET as Route;
    const { listTransfers } = await import("@/lib/payments/transfers/list");
    const { serviceSecret } = await import("@/lib/platform/secrets");
    // The cursor secret is read once per process (then kept): read it before counting.
    await serviceSecret(db, "cursor");
    const caller = await newCaller();
    for (let i = 0; i < 3; i++) await registeredTransfer(db, caller);
    const alone = (q: { createdSince?: Date; cursor?: string; states?: ["registered"] }) =>
      listTransfers(db, write, { subscriptionId: caller.subscriptionId, limit: 2, now: clock.now(), ...q }).then((page) => JSON.stringify(page));
    const first = await call(route, "/v1/core/transfers?limit=2", {}, auth(caller));
    assert.equal(first.status, 200, first.text);
    assert.equal(first.statements, 1);
    assert.equal(first.text, await alone({}));
    const { items, nextCursor } = JSON.parse(first.text) as { items: unknown[]; nextCursor: string };
    assert.equal(items.length, 2);
    const since = addSeconds(clock.now(), -60);
    const filtered = await call(route, `/v1/core/transfers?limit=2&createdSince=${since.toISOString()}`, {}, auth(caller));
    assert.equal(filtered.statements, 1);
    assert.equal(filtered.text, await alone({ createdSince: since }));
    // A cursor (checked against the subscription) and a states filter (its length varies) are read after the caller.
    const second = await call(route, `/v1/core/transfers?limit=2&cursor=${encodeURIComponent(nextCursor)}`, {}, auth(caller));
    assert.equal(second.status, 200, second.text);
    assert.equal(second.text, await alone({ cursor: nextCursor }));
    assert.equal(second.statements, 2);
    const states = await call(route, "/v1/core/transfers?limit=2&states=registered", {}, auth(caller));
    assert.equal(states.text, await alone({ states: ["registered"] }));
    const none = await call(route, "/v1/core/transfers?limit=2", {}, auth(await newCaller()));
    assert.equal(none.text, JSON.stringify({ items: [], nextCursor: null }));
    assert.equal(none.statements, 1);
  });

  it("still expires an overdue transfer before listing it (the caller's row carries the flag)", async () => {
    const route = (await import("@/app/v1/core/transfers/route")).GET as Route;
    const caller = await newCaller();
    const t = await registeredTransfer(db, caller);
    clock.advance((TRANSFER_TTL_SECONDS + 60) * 1000);
    try {
      const res = await call(route, "/v1/core/transfers", {}, auth({ ...caller, token: await tokenFor(caller) }));
      assert.equal(res.status, 200, res.text);
      const { items } = JSON.parse(res.text) as { items: { transferId: string; transferStatus: string }[] };
      assert.deepEqual(
        items.map((i) => [i.transferId, i.transferStatus]),
        [[t.id, "expired"]],
      );
      assert.ok(res.statements > 1, "the expiry is written");
    } finally {
      clock.reset();
    }
  });
});

/**
 * A read's caller brings its partner's id only: no read uses more of the partner, whose
 * whole row (four jsonb columns among 21) was sent and mapped with every row of the read.
 */
describe("a read's statement selects no partner column but its id", () => {
  it("for each of the six reads joined to their caller", async () => {
    const caller = await newCaller();
    const t = await registeredTransfer(db, caller);
    const reads: [string, string, Record<string, string>][] = [
      ["@/app/v1/core/transfers/[transferId]/route", `/v1/core/transfers/${t.id}`, { transferId: t.id }],
      ["@/app/v1/core/transfers/route", "/v1/core/transfers", {}],
      ["@/app/v1/core/beneficiaries/[beneficiaryId]/route", `/v1/core/beneficiaries/${t.beneficiaryId}`, { beneficiaryId: t.beneficiaryId }],
      ["@/app/v1/core/quotes/[quoteId]/route", `/v1/core/quotes/${t.quoteId}`, { quoteId: t.quoteId }],
      ["@/app/v1/core/profile/route", "/v1/core/profile", {}],
      ["@/app/v1/core/events/route", "/v1/core/events?limit=20", {}],
    ];
    for (const [module, path, params] of reads) {
      const route = ((await import(module)) as { GET: Route }).GET;
      const res = await call(route, path, params, auth(caller));
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      const read = res.texts.find((text) => text.includes('"partner_api_keys"."key_hash"'));
      assert.ok(read, `${path}: its caller's statement`);
      const partnerColumns = [...read.matchAll(/"partners"\."(\w+)"/g)].map((m) => m[1]);
      assert.ok(partnerColumns.includes("id"), path);
      assert.deepEqual(
        partnerColumns.filter((c) => c !== "id"),
        [],
        `${path} selects partner columns it does not use`,
      );
    }
  });
});
