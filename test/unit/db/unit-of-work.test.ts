/**
 * The one unit of work (lib/platform/unit-of-work.ts): success and keepChanges errors commit,
 * every other error rolls back; and the hosted funding page's pay action, which runs through it,
 * now commits the expiry it finds (it used to roll it back). PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { fundingSessions, partners, transfers } from "@/db/schema";
import { addSeconds, clock } from "@/lib/clock";
import { DomainError } from "@/lib/errors";
import { unitOfWork } from "@/lib/platform/unit-of-work";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

/** A write the test can look for afterwards: a partner row with a fresh id. */
async function writePartner(tx: Parameters<Parameters<typeof unitOfWork>[0]>[0], id: string) {
  const now = clock.now();
  await tx.insert(partners).values({ id, name: `Test ${id}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
}

async function partnerExists(id: string): Promise<boolean> {
  return (await db.select().from(partners).where(eq(partners.id, id))).length === 1;
}

describe("unit of work", () => {
  it("success commits the writes and returns the value; the seal runs in the same transaction", async () => {
    const id = newId("partner_uow");
    const sealed = newId("partner_uow");
    const outcome = await unitOfWork(
      async (tx) => {
        await writePartner(tx, id);
        return 42;
      },
      { seal: (tx, done) => (done.ok ? writePartner(tx, sealed) : Promise.resolve()) },
    );
    assert.deepEqual(outcome, { ok: true, value: 42 });
    assert.equal(await partnerExists(id), true);
    assert.equal(await partnerExists(sealed), true);
  });

  it("a keepChanges DomainError commits the writes made before it, and is the outcome", async () => {
    const id = newId("partner_uow");
    const sealed = newId("partner_uow");
    const outcome = await unitOfWork(
      async (tx) => {
        await writePartner(tx, id);
        throw new DomainError("funding.sessionExpired", { message: "expired", keepChanges: true });
      },
      { seal: (tx, done) => (done.ok ? Promise.resolve() : writePartner(tx, sealed)) },
    );
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && outcome.committed && outcome.error.code === "funding.sessionExpired");
    assert.equal(await partnerExists(id), true, "the kept error's writes committed");
    assert.equal(await partnerExists(sealed), true, "the seal ran with them");
  });

  it("any other DomainError rolls everything back (the seal does not run)", async () => {
    const id = newId("partner_uow");
    let sealed = false;
    const outcome = await unitOfWork(
      async (tx) => {
        await writePartner(tx, id);
        throw new DomainError("transfer.stateInvalid", { message: "no" });
      },
      {
        seal: async () => {
          sealed = true;
        },
      },
    );
    assert.ok(!outcome.ok && !outcome.committed && outcome.error.code === "transfer.stateInvalid");
    assert.equal(await partnerExists(id), false);
    assert.equal(sealed, false);
  });

  it("an unexpected error rolls back and becomes server.unexpected (no message leaked)", async () => {
    const id = newId("partner_uow");
    const outcome = await unitOfWork(async (tx) => {
      await writePartner(tx, id);
      throw new Error("SELECT secret FROM somewhere");
    });
    assert.ok(!outcome.ok && !outcome.committed);
    assert.equal(outcome.error.code, "server.unexpected");
    assert.ok(!outcome.error.message.includes("secret"));
    assert.equal(await partnerExists(id), false);
  });
});

// ---- The hosted funding page ---------------------------------------------------------------------

/** A transfer in funding with its open funding session and webview token, as confirm leaves it. */
async function fundingTransfer() {
  const { lockTransfer, transitionTransfer } = await import("@/lib/transfers/records");
  const { openFundingSession } = await import("@/lib/transfers/funding");
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
