/**
 * GET /v1/core/beneficiaries (spec 4.1 rule 6; decisions 5): default states exclude ARCHIVED,
 * states filter, fixed sort (most recently used first, then never-used by createdAt desc), opaque
 * keyset cursor bound to the customer, limit 1..200.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  acceptTransfer,
  archiveBeneficiary,
  assertError,
  assertIssue,
  createBeneficiary,
  forceScreening,
  listBeneficiaries,
  mexBeneficiary,
  screenedBeneficiary,
  validBeneficiary,
  validCustomer,
  type Customer,
  BENEFICIARY_KEYS,
} from "../support";

const ALL = "PENDING,VALID,MONITORED,BLOCKED,ARCHIVED";

/** Every item of every page at `limit`, in order; fails on a repeated cursor or a runaway walk. */
async function walk(c: Customer, query: string, limit: number): Promise<{ pages: any[][]; items: any[] }> {
  const pages: any[][] = [];
  let cursor: string | null = null;
  const seen = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const q: string = [query, `limit=${limit}`, cursor ? `cursor=${encodeURIComponent(cursor)}` : ""].filter(Boolean).join("&");
    const res = await listBeneficiaries(c, q);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["items", "nextCursor"]);
    assert.ok(res.body.items.length <= limit);
    pages.push(res.body.items);
    cursor = res.body.nextCursor;
    if (cursor === null) return { pages, items: pages.flat() };
    assert.equal(typeof cursor, "string");
    assert.ok(!seen.has(cursor), "cursor repeated");
    seen.add(cursor);
  }
  throw new Error("pagination did not end");
}

/** The spec order: used ones by lastUsedAt desc, then never-used by createdAt desc (id desc on ties). */
function specOrder(items: any[]): string[] {
  const used = items.filter((i) => i.lastUsedAt !== null).sort((a, b) => Date.parse(b.lastUsedAt) - Date.parse(a.lastUsedAt));
  const never = items
    .filter((i) => i.lastUsedAt === null)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.beneficiaryId < b.beneficiaryId ? 1 : -1));
  return [...used, ...never].map((i) => i.beneficiaryId);
}

describe("states", () => {
  let c: Customer;
  const ids: Record<string, string> = {};
  before(async () => {
    c = await validCustomer();
    ids.valid = (await validBeneficiary(c)).beneficiaryId;
    ids.monitored = (await screenedBeneficiary(c, mexBeneficiary({ firstName: "Olga", lastName: "Watchlistov" }))).beneficiaryId;
    ids.blocked = (await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }))).beneficiaryId;
    const archived = await validBeneficiary(c);
    assert.equal((await archiveBeneficiary(c, archived.beneficiaryId)).status, 200);
    ids.archived = archived.beneficiaryId;
    const pending = await createBeneficiary(c, mexBeneficiary());
    ids.pending = pending.body.beneficiaryId;
  });

  test("default: VALID, MONITORED, BLOCKED, PENDING; never ARCHIVED", async () => {
    const res = await listBeneficiaries(c);
    assert.equal(res.status, 200, res.text);
    const got = res.body.items.map((i: any) => i.beneficiaryId).sort();
    assert.deepEqual(got, [ids.valid, ids.monitored, ids.blocked, ids.pending].sort());
    assert.equal(res.body.nextCursor, null);
    assert.ok(!res.body.items.some((i: any) => i.state === "ARCHIVED"));
  });

  test("states=ARCHIVED lists only the archived record", async () => {
    const res = await listBeneficiaries(c, "states=ARCHIVED");
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.items.map((i: any) => i.beneficiaryId),
      [ids.archived],
    );
    assert.equal(res.body.items[0].state, "ARCHIVED");
  });

  test("states=BLOCKED,MONITORED lists exactly those", async () => {
    const res = await listBeneficiaries(c, "states=BLOCKED,MONITORED");
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.items.map((i: any) => i.beneficiaryId).sort(), [ids.blocked, ids.monitored].sort());
  });

  test("all five states list all five records", async () => {
    const res = await listBeneficiaries(c, `states=${ALL}`);
    assert.equal(res.body.items.length, 5);
  });

  test("items have the detail shape of decisions 5", async () => {
    const res = await listBeneficiaries(c, `states=${ALL}`);
    for (const item of res.body.items) {
      assert.deepEqual(Object.keys(item).sort(), BENEFICIARY_KEYS);
    }
  });

  for (const bad of ["ACTIVE", "valid", "VALID,", "VALID,,BLOCKED", "VALID;BLOCKED"]) {
    test(`states=${JSON.stringify(bad)} → 400 on query.states`, async () => {
      const res = await listBeneficiaries(c, `states=${encodeURIComponent(bad)}`);
      assertIssue(res, "query.states", "validation.fieldFormatInvalid");
    });
  }

  test("another customer sees none of them", async () => {
    const other = await validCustomer();
    const res = await listBeneficiaries(other, `states=${ALL}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.items, []);
    assert.equal(res.body.nextCursor, null);
  });
});

describe("sort and pagination", () => {
  let c: Customer;
  let created: string[] = [];
  let usedFirst: string;
  let usedSecond: string;
  let archivedId: string;

  before(async () => {
    c = await validCustomer();
    created = [];
    for (let i = 0; i < 6; i++) created.push((await validBeneficiary(c)).beneficiaryId);
    // created[1] used first, created[3] used later: created[3] is the most recently used.
    usedFirst = created[1]!;
    usedSecond = created[3]!;
    await acceptTransfer(c, usedFirst);
    await acceptTransfer(c, usedSecond);
    const archived = await validBeneficiary(c);
    assert.equal((await archiveBeneficiary(c, archived.beneficiaryId)).status, 200);
    archivedId = archived.beneficiaryId;
  });

  test("a beneficiary becomes used when a quote for it is accepted (lastUsedAt set)", async () => {
    const res = await listBeneficiaries(c);
    const byId = new Map(res.body.items.map((i: any) => [i.beneficiaryId, i]));
    assert.match((byId.get(usedFirst) as any).lastUsedAt, /Z$/);
    assert.match((byId.get(usedSecond) as any).lastUsedAt, /Z$/);
    assert.ok(Date.parse((byId.get(usedSecond) as any).lastUsedAt) > Date.parse((byId.get(usedFirst) as any).lastUsedAt));
    for (const id of created.filter((x) => x !== usedFirst && x !== usedSecond)) assert.equal((byId.get(id) as any).lastUsedAt, null);
  });

  test("one page: most recently used first, then never-used by createdAt desc", async () => {
    const res = await listBeneficiaries(c);
    const got = res.body.items.map((i: any) => i.beneficiaryId);
    const neverUsed = created.filter((x) => x !== usedFirst && x !== usedSecond).reverse();
    assert.deepEqual(got, [usedSecond, usedFirst, ...neverUsed]);
    assert.deepEqual(got, specOrder(res.body.items));
    assert.equal(res.body.nextCursor, null);
  });

  for (const limit of [1, 2, 4]) {
    test(`limit=${limit} walks every item exactly once in the fixed order`, async () => {
      const { pages, items } = await walk(c, "", limit);
      const ids = items.map((i) => i.beneficiaryId);
      assert.equal(new Set(ids).size, ids.length, "an item appeared twice");
      const neverUsed = created.filter((x) => x !== usedFirst && x !== usedSecond).reverse();
      assert.deepEqual(ids, [usedSecond, usedFirst, ...neverUsed]);
      assert.equal(pages.length, Math.ceil(created.length / limit));
      for (const page of pages.slice(0, -1)) assert.equal(page.length, limit);
    });
  }

  test("limit=2 over all states includes the archived record once, in never-used position", async () => {
    const { items } = await walk(c, `states=${ALL}`, 2);
    const ids = items.map((i) => i.beneficiaryId);
    assert.equal(ids.length, created.length + 1);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids[2], archivedId, "newest never-used record");
    assert.deepEqual(ids, specOrder(items));
  });

  test("consecutive pages never overlap (keyset cursor resumes strictly after the last item)", async () => {
    // The cursor is keyset-based: it resumes strictly after the last item it saw.
    const first = await listBeneficiaries(c, "limit=2");
    assert.equal(first.status, 200, first.text);
    const second = await listBeneficiaries(c, `limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.equal(second.status, 200, second.text);
    const overlap = second.body.items.filter((i: any) => first.body.items.some((f: any) => f.beneficiaryId === i.beneficiaryId));
    assert.deepEqual(overlap, []);
  });

  test("tampered cursor → 400 validation.fieldInvalid on query.cursor", async () => {
    const first = await listBeneficiaries(c, "limit=2");
    const cursor: string = first.body.nextCursor;
    const [body, mac] = cursor.split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString("utf8"));
    const forged = `${Buffer.from(JSON.stringify({ ...payload, c: payload.c + 1 })).toString("base64url")}.${mac}`;
    const flipped = cursor.slice(0, -1) + (cursor.endsWith("A") ? "B" : "A");
    for (const bad of [forged, flipped, "garbage", `${body}.`, `.${mac}`, "a.b.c"]) {
      const res = await listBeneficiaries(c, `limit=2&cursor=${encodeURIComponent(bad)}`);
      assertIssue(res, "query.cursor", "validation.fieldInvalid");
    }
  });

  test("another customer's cursor → 400 validation.fieldInvalid on query.cursor", async () => {
    const other = await validCustomer();
    await validBeneficiary(other);
    await validBeneficiary(other);
    await validBeneficiary(other);
    const theirs = await listBeneficiaries(other, "limit=1");
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(typeof theirs.body.nextCursor, "string");
    const res = await listBeneficiaries(c, `limit=1&cursor=${encodeURIComponent(theirs.body.nextCursor)}`);
    assertIssue(res, "query.cursor", "validation.fieldInvalid");
    // And the reverse.
    const mine = await listBeneficiaries(c, "limit=1");
    assertIssue(await listBeneficiaries(other, `limit=1&cursor=${encodeURIComponent(mine.body.nextCursor)}`), "query.cursor", "validation.fieldInvalid");
  });

  for (const bad of ["201", "0", "-1", "abc", "2.5"]) {
    test(`limit=${bad} → 400 validation.fieldInvalid on query.limit`, async () => {
      assertIssue(await listBeneficiaries(c, `limit=${bad}`), "query.limit", "validation.fieldInvalid");
    });
  }

  test("limit=200 is accepted", async () => {
    const res = await listBeneficiaries(c, "limit=200");
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.items.length, created.length);
  });

  test("a used BLOCKED record keeps its used position", async () => {
    assert.equal((await forceScreening(c, usedFirst, "BLOCKED")).status, 200);
    const res = await listBeneficiaries(c);
    assert.deepEqual(
      res.body.items.slice(0, 2).map((i: any) => i.beneficiaryId),
      [usedSecond, usedFirst],
    );
    assert.equal(res.body.items[1].state, "BLOCKED");
    assert.equal((await forceScreening(c, usedFirst, "VALID")).status, 200);
  });
});

describe("errors", () => {
  test("no bearer token → 401", async () => {
    const { call } = await import("../support/client");
    const res = await call("GET", "/v1/core/beneficiaries");
    assertError(res, 401, "auth.tokenInvalid");
  });
});
