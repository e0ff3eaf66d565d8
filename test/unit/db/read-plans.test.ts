/**
 * The customer reads joined to their caller (lib/identity/auth/authenticate.ts ReadWithCaller)
 * cost the same for a customer with many rows as for one with one, under the plan PostgreSQL keeps
 * for a prepared statement: after five executions it switches to a GENERIC plan, made without the
 * parameters' values, and a plan that reaches the path's transfer (quote, beneficiary) through the
 * customer's subscription index, filtering their rows on id, costs in proportion to how many they
 * have. The bench's customers have a few rows each, so only a test with one customer of many rows
 * sees it.
 *
 * Each read's statement, exactly as the route sends it (its text and values, caught at the driver's
 * client), is prepared again and run with plan_cache_mode = force_generic_plan under EXPLAIN
 * (ANALYZE, BUFFERS), for a customer with one row of each kind and for one with MANY, among
 * BACKGROUND customers of one row each (so the statistics look like a real database's: many
 * subscriptions, few rows each on average). Buffers (pages touched) and plan nodes are exact, unlike
 * times. Both databases: PGlite is PostgreSQL too and honours plan_cache_mode.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { partnerApiKeys } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

const MANY = 1000;
const BACKGROUND = 300;
const LIMIT = 20;

let db: Db;
let close: () => Promise<void>;

interface Caller extends Owner {
  apiKey: string;
  token: string;
  transfer: Awaited<ReturnType<typeof registeredTransfer>>;
}

let few: Caller;
let many: Caller;

before(async () => {
  // A database of its own on PostgreSQL: its statistics are this file's rows. Vacuumed as well as
  // analyzed, so autovacuum has nothing left to change under the plans (the visibility map weighs
  // in their costs).
  ({ db, close } = await freshDb({ ownDatabase: true }));
  few = await newCaller();
  many = await newCaller();
  await copyRows(few, many, MANY);
  await copyCustomers(few, BACKGROUND);
  await run(sql`vacuum analyze`);
});

after(() => close());

/** A customer with a subscription key of its partner, an access token and one transfer (with its quote, beneficiary and event). */
async function newCaller(): Promise<Caller> {
  const owner = await newSubscription(db);
  const apiKey = `key_${newId("k")}`;
  const now = clock.now();
  await db
    .insert(partnerApiKeys)
    .values({ id: newId("pak"), partnerId: owner.partnerId, keyHash: sha256Hex(apiKey), keyPrefix: apiKey.slice(0, 8), createdAt: now });
  const { issueTokens } = await import("@/lib/identity/auth/tokens");
  const issued = await db.transaction((tx) => issueTokens(tx, { subscriptionId: owner.subscriptionId, partnerId: owner.partnerId, now, nextStep: "NONE" }));
  return { ...owner, apiKey, token: issued.accessToken, transfer: await registeredTransfer(db, owner) };
}

async function run(query: ReturnType<typeof sql>) {
  const result = (await db.execute(query)) as unknown as Record<string, unknown>[] | { rows: Record<string, unknown>[] };
  return Array.isArray(result) ? result : result.rows;
}

/**
 * `count` copies of `from`'s beneficiary, quote, transfer and event (each row as it is, new ids,
 * one minute older per copy) for `to`. Plain SQL: thousands of rows in four statements.
 */
async function copyRows(from: Owner, to: Owner, count: number) {
  const id = (kind: string) => `'many_${kind}_' || n`;
  const copies = (table: string, alias: string, set: string) =>
    sql.raw(
      `insert into ${table} select (jsonb_populate_record(null::${table}, to_jsonb(${alias}) || jsonb_build_object(${set}))).* ` +
        `from ${table} ${alias}, generate_series(1, ${count}) n where ${alias}.subscription_id = '${from.subscriptionId}'`,
    );
  const owner = `'subscription_id', '${to.subscriptionId}', 'partner_id', '${to.partnerId}'`;
  const older = (alias: string) => `'created_at', ${alias}.created_at - n * interval '1 minute'`;
  await run(copies("beneficiaries", "b", `'id', ${id("ben")}, 'subscription_id', '${to.subscriptionId}', ${older("b")}`));
  await run(copies("quotes", "q", `'id', ${id("quo")}, 'jti', ${id("jti")}, 'beneficiary_id', ${id("ben")}, ${owner}, ${older("q")}`));
  await run(
    copies(
      "transfers",
      "t",
      `'id', ${id("trf")}, 'quote_id', ${id("quo")}, 'beneficiary_id', ${id("ben")}, 'customer_id', '${to.customerId}', ${owner}, ${older("t")}`,
    ),
  );
  await run(copies("events", "e", `'id', ${id("evt")}, 'subscription_id', '${to.subscriptionId}', 'sequence', e.sequence + n`));
}

/** `count` more customers (of `from`'s partner), each with one copy of `from`'s rows. */
async function copyCustomers(from: Owner, count: number) {
  const series = `generate_series(1, ${count}) g`;
  await run(
    sql.raw(
      `insert into customers select (jsonb_populate_record(null::customers, to_jsonb(c) || jsonb_build_object('id', 'bg_cus_' || g))).* ` +
        `from customers c, ${series} where c.id = '${from.customerId}'`,
    ),
  );
  await run(
    sql.raw(
      `insert into subscriptions select (jsonb_populate_record(null::subscriptions, to_jsonb(s) || jsonb_build_object('id', 'bg_sub_' || g, 'customer_id', 'bg_cus_' || g))).* ` +
        `from subscriptions s, ${series} where s.id = '${from.subscriptionId}'`,
    ),
  );
  // One copy of each row per background subscription.
  const id = (kind: string) => `'bg_${kind}_' || g`;
  const copies = (table: string, alias: string, set: string) =>
    sql.raw(
      `insert into ${table} select (jsonb_populate_record(null::${table}, to_jsonb(${alias}) || jsonb_build_object(${set}))).* ` +
        `from ${table} ${alias}, ${series} where ${alias}.subscription_id = '${from.subscriptionId}'`,
    );
  const sub = `'subscription_id', 'bg_sub_' || g`;
  await run(copies("beneficiaries", "b", `'id', ${id("ben")}, ${sub}`));
  await run(copies("quotes", "q", `'id', ${id("quo")}, 'jti', ${id("jti")}, 'beneficiary_id', ${id("ben")}, ${sub}`));
  await run(copies("transfers", "t", `'id', ${id("trf")}, 'quote_id', ${id("quo")}, 'beneficiary_id', ${id("ben")}, 'customer_id', 'bg_cus_' || g, ${sub}`));
  await run(copies("events", "e", `'id', ${id("evt")}, ${sub}`));
}

type Route = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The read's statement (its caller's join) as the route sends it: text and values, caught at the driver's client. */
async function statementOf(module: string, path: string, params: Record<string, string>, caller: Caller) {
  const client = (db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const method = typeof client.unsafe === "function" ? "unsafe" : "query";
  const original = Object.getOwnPropertyDescriptor(client, method)!.value as (...args: unknown[]) => unknown;
  const sent: { text: string; values: unknown[] }[] = [];
  client[method] = function (this: unknown, ...args: unknown[]) {
    sent.push({ text: String(args[0]), values: (args[1] as unknown[] | undefined) ?? [] });
    return original.apply(this, args);
  };
  try {
    const route = ((await import(module)) as { GET: Route }).GET;
    const headers = { "ocp-apim-subscription-key": caller.apiKey, authorization: `Bearer ${caller.token}` };
    const res = await route(new Request(`http://127.0.0.1${path}`, { headers }), { params: Promise.resolve(params) });
    assert.equal(res.status, 200, `${path}: ${await res.text()}`);
  } finally {
    client[method] = original;
  }
  const read = sent.find((s) => s.text.includes('"partner_api_keys"."key_hash"'));
  assert.ok(read, `${path}: its caller's statement`);
  return read;
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  Alias?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Shared Hit Blocks": number;
  "Shared Read Blocks": number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
const literal = (v: unknown) => (v === null || v === undefined ? "null" : `'${(v instanceof Date ? v.toISOString() : String(v)).replaceAll("'", "''")}'`);

/** The statement's generic plan, run (EXPLAIN ANALYZE, BUFFERS) with its values: the second run's, caches warm. */
async function genericPlan(statement: { text: string; values: unknown[] }): Promise<{ buffers: number; nodes: PlanNode[] }> {
  return db.transaction(async (tx) => {
    const exec = async (text: string) => {
      const result = (await tx.execute(sql.raw(text))) as unknown as Record<string, unknown>[] | { rows: Record<string, unknown>[] };
      return Array.isArray(result) ? result : result.rows;
    };
    await exec("set local plan_cache_mode = force_generic_plan");
    await exec(`prepare read_plan as ${statement.text}`);
    const args = statement.values.length ? `(${statement.values.map(literal).join(", ")})` : "";
    const explain = `explain (analyze, buffers, format json) execute read_plan${args}`;
    await exec(explain);
    const [row] = await exec(explain);
    await exec("deallocate read_plan");
    const json = row["QUERY PLAN"];
    const plan = ((typeof json === "string" ? JSON.parse(json) : json) as { Plan: PlanNode }[])[0].Plan;
    return { buffers: plan["Shared Hit Blocks"] + plan["Shared Read Blocks"], nodes: nodesOf(plan) };
  });
}

async function plans(module: string, path: (c: Caller) => string, params: (c: Caller) => Record<string, string>) {
  const one = await genericPlan(await statementOf(module, path(few), params(few), few));
  const lots = await genericPlan(await statementOf(module, path(many), params(many), many));
  return { one, lots };
}

const scansOf = (nodes: PlanNode[], alias: string) => nodes.filter((n) => n.Alias === alias && n["Relation Name"]);

describe(`generic plans of the reads joined to their caller: a customer with ${MANY} rows costs what one with one row does`, () => {
  const pointReads: [string, string, (c: Caller) => string, (c: Caller) => Record<string, string>, string][] = [
    [
      "transfer detail",
      "@/app/v1/core/transfers/[transferId]/route",
      (c) => `/v1/core/transfers/${c.transfer.id}`,
      (c) => ({ transferId: c.transfer.id }),
      "transfers_pkey",
    ],
    ["quote", "@/app/v1/core/quotes/[quoteId]/route", (c) => `/v1/core/quotes/${c.transfer.quoteId}`, (c) => ({ quoteId: c.transfer.quoteId }), "quotes_pkey"],
    [
      "beneficiary",
      "@/app/v1/core/beneficiaries/[beneficiaryId]/route",
      (c) => `/v1/core/beneficiaries/${c.transfer.beneficiaryId}`,
      (c) => ({ beneficiaryId: c.transfer.beneficiaryId }),
      "beneficiaries_pkey",
    ],
  ];
  for (const [name, module, path, params, pkey] of pointReads) {
    it(`${name}: reached by ${pkey}, the same buffers for ${MANY} rows as for one`, async () => {
      const { one, lots } = await plans(module, path, params);
      for (const plan of [one, lots]) {
        assert.ok(
          plan.nodes.some((n) => n["Index Name"] === pkey),
          `${name}: ${pkey} not in the plan: ${plan.nodes.map((n) => `${n["Node Type"]} ${n["Index Name"] ?? n["Relation Name"] ?? ""}`).join(", ")}`,
        );
      }
      assert.equal(lots.buffers, one.buffers, `${name}: buffers for ${MANY} rows vs one`);
    });
  }

  it(`profile: the same buffers for a customer with ${MANY} transfers as with one`, async () => {
    const { one, lots } = await plans(
      "@/app/v1/core/profile/route",
      () => "/v1/core/profile",
      () => ({}),
    );
    assert.equal(lots.buffers, one.buffers);
  });

  it("events: the page is read in order from the subscription's index up to its limit, not all the events then sorted", async () => {
    const { one, lots } = await plans(
      "@/app/v1/core/events/route",
      () => `/v1/core/events?limit=${LIMIT}`,
      () => ({}),
    );
    const [scan] = scansOf(lots.nodes, "events");
    assert.equal(scan?.["Index Name"], "events_subscription_sequence_idx");
    assert.ok(scan["Actual Rows"] <= LIMIT + 1, `events read: ${scan["Actual Rows"]}`);
    // The page's own rows (LIMIT + 1 instead of one) take a few more heap pages, no more.
    assert.ok(lots.buffers <= one.buffers + 5, `buffers ${lots.buffers} for ${MANY} events vs ${one.buffers} for one`);
  });

  it("transfer list: the overdue check runs once, not once per row of the page", async () => {
    const { lots } = await plans(
      "@/app/v1/core/transfers/route",
      () => `/v1/core/transfers?limit=${LIMIT}`,
      () => ({}),
    );
    // The page itself may read every transfer of the customer to keep the newest (a top-N sort
    // of LIMIT + 1 rows) or walk transfers_subscription_idx newest first with an incremental sort
    // on id: the statistics choose (index order is created_at then limits columns, not id), and
    // both are a read of the customer's rows the list legitimately makes. The overdue check
    // (every pre-funding transfer of the subscription when none is overdue) must not repeat per row.
    const overdue = scansOf(lots.nodes, "overdue");
    assert.equal(overdue.length, 1);
    assert.equal(overdue[0]["Actual Loops"], 1, "the overdue check is evaluated once, not once per row of the page");
  });
});
