/**
 * The one unit of work (lib/platform/unit-of-work.ts): success and keepChanges errors commit,
 * every other error rolls back; one mapping of failures (DomainError, lost database 503 before or
 * after the transaction opens, anything else 500); effects collected and written at commit,
 * dropped on rollback, the worker woken after a commit only; and the hosted funding page's pay action, which runs through it,
 * now commits the expiry it finds (it used to roll it back). PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { auditLog, events, fundingSessions, jobs, journalEntries, partners, subscriptions, transfers } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { wakeSignal } from "@/lib/platform/jobs/wake";
import { posting } from "@/lib/finance/ledger";
import { runUnit, toDomainError, withEffects, type UnitContext } from "@/lib/platform/unit-of-work";
import { shapes } from "@/db/statement-shapes";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

/** A write the test can look for afterwards: a partner row with a fresh id. */
async function writePartner(tx: Tx, id: string) {
  const now = clock.now();
  await tx.insert(partners).values({ id, name: `Test ${id}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
}

async function partnerExists(id: string): Promise<boolean> {
  return (await db.select().from(partners).where(eq(partners.id, id))).length === 1;
}

/** Counts the in-process wake-ups while `work` runs. */
async function wakesDuring(work: () => Promise<unknown>): Promise<number> {
  let wakes = 0;
  const onWake = () => void wakes++;
  wakeSignal().on("wake", onWake);
  try {
    await work();
  } finally {
    wakeSignal().off("wake", onWake);
  }
  return wakes;
}

const lostConnection = () => Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), { code: "CONNECTION_CLOSED" });
const operator = { id: "op_uow", email: "uow@example.test", name: "UoW", role: "admin" as const };

describe("unit of work: outcomes and error mapping", () => {
  it("success commits the writes and returns the value; the seal runs in the same transaction", async () => {
    const id = newId("partner_uow");
    const sealed = newId("partner_uow");
    const outcome = await runUnit(
      async ({ tx }) => {
        await writePartner(tx, id);
        return 42;
      },
      { db, seal: (unit, done) => (done.ok ? writePartner(unit.tx, sealed) : Promise.resolve()) },
    );
    assert.deepEqual(outcome, { ok: true, value: 42 });
    assert.equal(await partnerExists(id), true);
    assert.equal(await partnerExists(sealed), true);
  });

  it("a keepChanges DomainError commits the writes made before it, and is the outcome", async () => {
    const id = newId("partner_uow");
    const sealed = newId("partner_uow");
    const outcome = await runUnit(
      async ({ tx }) => {
        await writePartner(tx, id);
        throw new DomainError("funding.sessionExpired", { message: "expired", keepChanges: true });
      },
      { db, seal: (unit, done) => (done.ok ? Promise.resolve() : writePartner(unit.tx, sealed)) },
    );
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && outcome.committed && outcome.error.code === "funding.sessionExpired");
    assert.equal(await partnerExists(id), true, "the kept error's writes committed");
    assert.equal(await partnerExists(sealed), true, "the seal ran with them");
  });

  it("any other DomainError rolls everything back (the seal does not run)", async () => {
    const id = newId("partner_uow");
    let sealed = false;
    const outcome = await runUnit(
      async ({ tx }) => {
        await writePartner(tx, id);
        throw new DomainError("transfer.stateInvalid", { message: "no" });
      },
      {
        db,
        seal: async () => {
          sealed = true;
        },
      },
    );
    assert.ok(!outcome.ok && !outcome.committed && outcome.error.code === "transfer.stateInvalid");
    assert.equal(await partnerExists(id), false);
    assert.equal(sealed, false);
  });

  it("an unexpected error rolls back and becomes 500 server.unexpected (no message leaked)", async () => {
    const id = newId("partner_uow");
    const outcome = await runUnit(
      async ({ tx }) => {
        await writePartner(tx, id);
        throw new Error("SELECT secret FROM somewhere");
      },
      { db },
    );
    assert.ok(!outcome.ok && !outcome.committed);
    assert.equal(outcome.error.code, "server.unexpected");
    assert.equal(outcome.error.status, 500);
    assert.ok(!outcome.error.message.includes("secret"));
    assert.equal(await partnerExists(id), false);
  });

  it("a database lost before the transaction opens is 503 internal.unavailable", async () => {
    let ran = false;
    const outcome = await runUnit(
      async () => {
        ran = true;
      },
      { db: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })) },
    );
    assert.ok(!outcome.ok && !outcome.committed);
    assert.equal(outcome.error.code, "internal.unavailable");
    assert.equal(outcome.error.status, 503);
    assert.equal(outcome.error.retryAfterSeconds, 5);
    assert.equal(ran, false);
  });

  it("a database lost after the transaction opened is the same 503, and nothing commits", async () => {
    const id = newId("partner_uow");
    const outcome = await runUnit(
      async ({ tx }) => {
        await writePartner(tx, id);
        throw new Error("Failed query", { cause: lostConnection() });
      },
      { db },
    );
    assert.ok(!outcome.ok && !outcome.committed);
    assert.equal(outcome.error.code, "internal.unavailable");
    assert.equal(outcome.error.status, 503);
    assert.equal(await partnerExists(id), false);
  });

  it("toDomainError: the one mapping (DomainError as it is, lost database 503, anything else 500)", () => {
    const known = new DomainError("transfer.notFound");
    assert.equal(toDomainError(known), known);
    assert.equal(toDomainError(lostConnection()).code, "internal.unavailable");
    assert.equal(toDomainError({ code: "57P01" }).code, "internal.unavailable");
    assert.equal(toDomainError(new TypeError("x is undefined")).code, "server.unexpected");
    assert.equal(toDomainError("a string").code, "server.unexpected");
  });
});

describe("unit of work: effects", () => {
  async function effectsOf(marker: string, ex: Db | Tx = db) {
    const ev = await ex
      .select()
      .from(events)
      .where(sql`${events.body}->'data'->>'marker' = ${marker}`);
    const jb = await ex
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'marker' = ${marker}`);
    const au = await ex.select().from(auditLog).where(eq(auditLog.targetId, marker));
    const je = await ex.select().from(journalEntries).where(eq(journalEntries.sourceKey, marker));
    return { events: ev, jobs: jb, audit: au, entries: je };
  }

  function emitAll(unit: UnitContext, owner: { subscriptionId: string }, marker: string) {
    unit.events.emit({ subscriptionId: owner.subscriptionId, eventType: "customer.status.changed", data: { marker, n: 1 } });
    unit.events.emit({ subscriptionId: owner.subscriptionId, eventType: "customer.status.changed", data: { marker, n: 2 } });
    // A test kind's payload: never run here (the test drains nothing).
    unit.jobs.schedule("transfers.expire", { transferId: `trf_${marker}`, marker } as never, { runAt: unit.now, dedupeKey: `uow:${marker}` });
    unit.audit.record({ action: "uow.test", targetType: "test", targetId: marker });
    unit.ledger.post(
      posting({
        sourceKey: marker,
        kind: "test",
        memo: "unit of work test",
        lines: [
          { account: "cash:collection", currency: "USD", debit: 100n },
          { account: "suspense:unallocated", currency: "USD", credit: 100n },
        ],
        now: unit.now,
      }),
    );
  }

  it("are statements whose text is built once per shape: a second unit with the same effects only binds its values", async () => {
    const owner = await withEndpoint();
    const markers = [newId("uow"), newId("uow")];
    const counts: { hits: number; renders: number }[] = [];
    for (const marker of markers) {
      const outcome = await runUnit(async (unit) => emitAll(unit, owner, marker), { db, actor: { kind: "operator", operator } });
      assert.equal(outcome.ok, true);
      counts.push({ hits: shapes.hits, renders: shapes.renders });
    }
    // Every statement of the second unit (the postings' and the one of events, deliveries, job and
    // audit) came from a kept text: nothing rendered.
    assert.equal(counts[1].renders - counts[0].renders, 0);
    assert.ok(counts[1].hits - counts[0].hits >= 1);
    for (const marker of markers) {
      const written = await effectsOf(marker);
      assert.deepEqual([written.events.length, written.jobs.length, written.audit.length, written.entries.length], [2, 1, 1, 1]);
      assert.deepEqual(
        written.events.map((e) => (e.body as { data: { marker: string; n: number } }).data).sort((a, b) => a.n - b.n),
        [
          { marker, n: 1 },
          { marker, n: 2 },
        ],
      );
    }
  });

  /** A subscription whose partner has a webhook endpoint ready (a URL and a secret). */
  async function withEndpoint() {
    const owner = await newSubscription(db);
    await db.update(partners).set({ webhookUrl: "https://partner.example/hooks", webhookSecret: "whsec_dGVzdA==" }).where(eq(partners.id, owner.partnerId));
    return owner;
  }

  /** The delivery jobs of these events. */
  async function deliveriesOf(list: { id: string }[]) {
    return db
      .select()
      .from(jobs)
      .where(
        sql`${jobs.kind} = 'webhooks.deliver' and ${jobs.payload}->>'eventId' in (${sql.join(
          list.map((e) => sql`${e.id}`),
          sql`, `,
        )})`,
      );
  }

  it("are written at commit, together: events numbered in order with their deliveries, jobs, audit, postings; the worker woken after", async () => {
    const owner = await withEndpoint();
    const marker = newId("uow");
    let inside: Awaited<ReturnType<typeof effectsOf>> | undefined;
    const wakes = await wakesDuring(async () => {
      const outcome = await runUnit(
        async (unit) => {
          emitAll(unit, owner, marker);
          // Collected, not yet written.
          inside = await effectsOf(marker, unit.tx);
        },
        { db, actor: { kind: "operator", operator } },
      );
      assert.equal(outcome.ok, true);
    });
    assert.deepEqual([inside!.events.length, inside!.jobs.length, inside!.audit.length, inside!.entries.length], [0, 0, 0, 0]);
    const after = await effectsOf(marker);
    assert.deepEqual(
      after.events.map((e) => [e.sequence, (e.body as { data: { n: number } }).data.n, (e.body as { sequence: number }).sequence]),
      [
        [1, 1, 1],
        [2, 2, 2],
      ],
    );
    assert.equal(after.jobs.length, 1);
    assert.deepEqual(
      after.events.map((e) => e.deliveryState),
      ["pending", "pending"],
    );
    assert.equal((await deliveriesOf(after.events)).length, 2, "each event has its delivery job");
    assert.equal(after.audit.length, 1);
    assert.equal(after.audit[0].operatorId, operator.id);
    assert.equal(after.entries.length, 1);
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, owner.subscriptionId));
    assert.equal(Number(sub.eventSequence), 2, "the counter row raised once by the count");
    assert.equal(wakes, 1, "jobs written: the worker is woken after the commit");
  });

  it("an event of a partner with no endpoint ready is written undeliverable, with no delivery job (and no wake for it)", async () => {
    const noUrl = await newSubscription(db);
    const disabled = await withEndpoint();
    await db.update(partners).set({ webhookDisabledAt: clock.now() }).where(eq(partners.id, disabled.partnerId));
    const noSecret = await newSubscription(db);
    await db.update(partners).set({ webhookUrl: "https://partner.example/hooks" }).where(eq(partners.id, noSecret.partnerId));
    for (const owner of [noUrl, disabled, noSecret]) {
      const marker = newId("uow");
      const wakes = await wakesDuring(() =>
        runUnit(async (unit) => unit.events.emit({ subscriptionId: owner.subscriptionId, eventType: "customer.status.changed", data: { marker } }), {
          db,
        }),
      );
      const [event] = (await effectsOf(marker)).events;
      assert.equal(event.deliveryState, "undeliverable");
      assert.equal(event.deliveredAt, null);
      assert.deepEqual(await deliveriesOf([event]), []);
      assert.equal(wakes, 0, "no job written: nothing to wake the worker for");
    }
  });

  it("a later unit continues the subscription's sequence", async () => {
    const owner = await newSubscription(db);
    for (const n of [1, 2]) {
      const outcome = await runUnit(
        async (unit) => unit.events.emit({ subscriptionId: owner.subscriptionId, eventType: "customer.status.changed", data: { n } }),
        { db },
      );
      assert.equal(outcome.ok, true);
    }
    const rows = await db.select().from(events).where(eq(events.subscriptionId, owner.subscriptionId));
    assert.deepEqual(rows.map((r) => Number(r.sequence)).sort(), [1, 2]);
  });

  it("are dropped when the unit rolls back (DomainError, unexpected error); the worker is not woken", async () => {
    const owner = await newSubscription(db);
    for (const failure of [new DomainError("transfer.stateInvalid"), new Error("boom")]) {
      const marker = newId("uow");
      const wakes = await wakesDuring(() =>
        runUnit(
          async (unit) => {
            emitAll(unit, owner, marker);
            throw failure;
          },
          { db, actor: { kind: "operator", operator } },
        ),
      );
      const after = await effectsOf(marker);
      assert.deepEqual([after.events.length, after.jobs.length, after.audit.length, after.entries.length], [0, 0, 0, 0], String(failure));
      assert.equal(wakes, 0, "no commit, no wake");
    }
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, owner.subscriptionId));
    assert.equal(Number(sub.eventSequence), 0, "no number was used");
  });

  it("commit with a keepChanges error: the effects are written too", async () => {
    const owner = await newSubscription(db);
    const marker = newId("uow");
    const outcome = await runUnit(
      async (unit) => {
        emitAll(unit, owner, marker);
        throw new DomainError("funding.sessionExpired", { keepChanges: true });
      },
      { db, actor: { kind: "operator", operator } },
    );
    assert.ok(!outcome.ok && outcome.committed);
    const after = await effectsOf(marker);
    assert.deepEqual([after.events.length, after.jobs.length, after.audit.length, after.entries.length], [2, 1, 1, 1]);
  });

  it("an event for an unknown subscription fails the unit (nothing commits)", async () => {
    const id = newId("partner_uow");
    const outcome = await runUnit(
      async (unit) => {
        await writePartner(unit.tx, id);
        unit.events.emit({ subscriptionId: "sub_missing", eventType: "customer.status.changed", data: {} });
      },
      { db },
    );
    assert.ok(!outcome.ok && outcome.error.code === "server.unexpected");
    assert.equal(await partnerExists(id), false);
  });

  /** A job waiting an hour from now under `key` (a delivery held back behind an earlier event). */
  async function waitingJob(key: string) {
    const id = newId("job");
    await db.insert(jobs).values({
      id,
      kind: "webhooks.deliver",
      payload: { eventId: key },
      state: "pending",
      runAt: addSeconds(clock.now(), 3600),
      dedupeKey: key,
      maxAttempts: 8,
      createdAt: clock.now(),
    });
    return async () => (await db.select().from(jobs).where(eq(jobs.id, id)))[0].runAt.getTime();
  }

  it("a nudge moves the waiting job of its key to now, at commit; the worker is woken for a job moved only", async () => {
    const key = newId("uow_nudge");
    const runAt = await waitingJob(key);
    const before = await runAt();
    let inside = 0;
    const wakes = await wakesDuring(() =>
      runUnit(
        async (unit) => {
          await unit.jobs.nudge(key);
          inside = (await unit.tx.select().from(jobs).where(eq(jobs.dedupeKey, key)))[0].runAt.getTime();
        },
        { db },
      ),
    );
    assert.equal(inside, before, "collected, not yet written");
    assert.ok((await runAt()) <= clock.now().getTime(), "due now after the commit");
    assert.equal(wakes, 1);
    const none = await wakesDuring(() => runUnit((unit) => unit.jobs.nudge(newId("uow_none")), { db }));
    assert.equal(none, 0, "nothing moved: nothing to wake the worker for");
  });

  it("writeNow writes at once, together: later reads of the unit see them; a rollback drops them", async () => {
    const [a, b, c] = [newId("partner_uow"), newId("partner_uow"), newId("partner_uow")];
    const now = clock.now();
    const row = (id: string) => ({ id, name: `Test ${id}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
    const outcome = await runUnit(
      async (unit) => {
        await unit.writeNow(unit.tx.insert(partners).values(row(a)), unit.tx.insert(partners).values(row(b)));
        return (
          await unit.tx
            .select()
            .from(partners)
            .where(sql`${partners.id} in (${a}, ${b})`)
        ).length;
      },
      { db },
    );
    assert.deepEqual(outcome, { ok: true, value: 2 });
    assert.ok((await partnerExists(a)) && (await partnerExists(b)));
    await runUnit(
      async (unit) => {
        await unit.writeNow(unit.tx.insert(partners).values(row(c)));
        throw new DomainError("transfer.stateInvalid");
      },
      { db },
    );
    assert.equal(await partnerExists(c), false);
  });

  it("withEffects outside a unit writes its effects once the callback returns (one statement); inside one they are the unit's", async () => {
    const key = newId("uow_with");
    const runAt = await waitingJob(key);
    const id = newId("partner_uow");
    const now = clock.now();
    let during = true;
    const wakes = await wakesDuring(() =>
      withEffects(db, async (effects) => {
        await effects.atCommit(db.insert(partners).values({ id, name: "Test", webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now }));
        await effects.jobs.nudge(key);
        during = await partnerExists(id);
      }),
    );
    assert.equal(during, false, "nothing written while the callback runs");
    assert.ok(await partnerExists(id));
    assert.ok((await runAt()) <= clock.now().getTime());
    assert.equal(wakes, 1, "a job moved: this process's worker is woken");
    const inUnit = newId("partner_uow");
    const outcome = await runUnit(
      async (unit) => {
        await withEffects(unit.tx, (effects) =>
          effects.atCommit(
            unit.tx.insert(partners).values({ id: inUnit, name: "Test", webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now }),
          ),
        );
        return (await unit.tx.select().from(partners).where(eq(partners.id, inUnit))).length;
      },
      { db },
    );
    assert.deepEqual(outcome, { ok: true, value: 0 }, "inside a unit: written at its commit");
    assert.ok(await partnerExists(inUnit));
  });

  it("an audit entry needs an operator to act for", async () => {
    const outcome = await runUnit(async (unit) => unit.audit.record({ action: "x", targetType: "x", targetId: "x" }), { db });
    assert.ok(!outcome.ok && outcome.error.code === "server.unexpected");
  });
});

// ---- The hosted funding page ---------------------------------------------------------------------

/** A transfer in funding with its open funding session and webview token, as confirm leaves it. */
async function fundingTransfer() {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession } = await import("@/lib/payments/transfers/funding");
  const owner = await newSubscription(db);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const created = await insertTestTransfer(tx, owner, now);
    const row = (await lockTransfer(tx, created.id))!;
    const validated = await transitionTransfer(tx, row, "fastCheck.passed", now);
    const funding = await transitionTransfer(tx, validated, "confirm", now, { confirmedAt: now });
    const session = await openFundingSession(tx, funding, now);
    const token = new URL(session.fundingWebviewUrl).pathname.split("/").at(-1)!;
    return { transferId: funding.id, fundingSessionId: session.fundingSessionId, token };
  });
}

describe("hosted funding page (webview pay action)", () => {
  it("a payment after the transfer's 120-minute deadline answers 410 and commits the expiry it found", async () => {
    const { POST } = await import("@/app/webviews/funding/[token]/pay/route");
    const f = await fundingTransfer();
    // The session (30 min) is still open, but the transfer's own deadline has passed.
    await db
      .update(transfers)
      .set({ expiresAt: addSeconds(clock.now(), -1) })
      .where(eq(transfers.id, f.transferId));

    const req = new Request(`http://localhost/webviews/funding/${f.token}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "BANK_TRANSFER" }),
    });
    const res = await POST(req, { params: Promise.resolve({ token: f.token }) });
    assert.equal(res.status, 410);
    const body = (await res.json()) as { error: { code: string } };
    assert.equal(body.error.code, "funding.sessionExpired");

    const [transfer] = await db.select().from(transfers).where(eq(transfers.id, f.transferId));
    assert.equal(transfer.state, "expired", "the expiry committed with the refusal");
    const [session] = await db.select().from(fundingSessions).where(eq(fundingSessions.id, f.fundingSessionId));
    assert.equal(session.state, "EXPIRED", "its funding session ended with it");
  });
});
