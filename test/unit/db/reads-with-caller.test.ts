/**
 * A customer read runs in its caller's statement (issue 26, lib/auth/authenticate.ts
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
import { customers, partnerApiKeys } from "@/db/schema";
import { clock } from "@/lib/clock";
import { sha256Hex } from "@/lib/crypto/hash";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

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
  const { issueTokens } = await import("@/lib/auth/tokens");
  const owner = await newSubscription(db);
  const apiKey = `key_${newId("k")}`;
  const now = clock.now();
  await db.insert(partnerApiKeys).values({ id: newId("pak"), partnerId: owner.partnerId, keyHash: sha256Hex(apiKey), keyPrefix: apiKey.slice(0, 8), createdAt: now });
  const { accessToken } = await db.transaction((tx) => issueTokens(tx, { subscriptionId: owner.subscriptionId, partnerId: owner.partnerId, now, nextStep: "NONE" }));
  return { ...owner, apiKey, token: accessToken };
}

/** Statements sent by the process's database client while `work` runs (postgres.js unsafe, PGlite query). */
async function counted<T>(work: () => Promise<T>): Promise<{ value: T; statements: number }> {
  const client = (db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const method = typeof client.unsafe === "function" ? "unsafe" : "query";
  // The client's own method (postgres.js's is behind db/named-statements.ts's Proxy, whose get answers a wrapper calling it).
  const original = Object.getOwnPropertyDescriptor(client, method)!.value as (...args: unknown[]) => unknown;
  let statements = 0;
  client[method] = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
  try {
    return { value: await work(), statements };
  } finally {
    client[method] = original;
  }
}

type Route = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(route: Route, path: string, params: Record<string, string>, headers: Record<string, string>) {
  const { value: res, statements } = await counted(() => route(new Request(`http://127.0.0.1${path}`, { headers }), { params: Promise.resolve(params) }));
  return { status: res.status, text: await res.text(), statements };
}

const auth = (c: Caller) => ({ "ocp-apim-subscription-key": c.apiKey, authorization: `Bearer ${c.token}` });
const codeOf = (text: string) => (JSON.parse(text) as { error: { code: string } }).error.code;

describe("GET /v1/core/transfers/{id} in one statement with its caller", () => {
  let route: Route;
  before(async () => {
    route = (await import("@/app/v1/core/transfers/[transferId]/route")).GET as Route;
  });

  it("answers the detail with one statement, the same bytes as the read made after the caller", async () => {
    const { readTransfer } = await import("@/lib/transfers/read");
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
