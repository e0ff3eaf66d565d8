import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { jobs, otpDeliveries, referenceRateSets, sanctionsListVersions } from "@/db/schema";
import { enqueue } from "@/lib/platform/jobs/queue";
import { failedOtpDeliveries, retryingOtpDeliveries } from "@/lib/operations/notifications/failed-deliveries";
import { readiness } from "@/lib/platform/readiness";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await freshDb()));
after(async () => close());

describe("readiness: GET /readyz's checks (issue 20 item 4)", () => {
  test("a sanctions list not loaded yet fails readiness with the ofac provider, and passes once a version is stored", async () => {
    const list = `test-list-${randomUUID()}`;
    const before = await readiness(db, { screening: "ofac", referenceRates: "sandbox" }, [list]);
    assert.deepEqual(before, { ready: false, checks: { database: "ok", migrations: "ok", sanctionsLists: "failed", referenceRates: "not used" } });
    await db
      .insert(sanctionsListVersions)
      .values({ id: `slv_${randomUUID()}`, list, contentHash: randomUUID(), source: "test", entryCount: 0, aliasCount: 0, createdAt: new Date() });
    assert.deepEqual(await readiness(db, { screening: "ofac", referenceRates: "sandbox" }, [list]), {
      ready: true,
      checks: { database: "ok", migrations: "ok", sanctionsLists: "ok", referenceRates: "not used" },
    });
    assert.equal((await readiness(db, { screening: "sandbox", referenceRates: "sandbox" }, [`none-${randomUUID()}`])).checks.sanctionsLists, "not used");
  });

  test("the ecb provider needs a stored ECB rate set", async () => {
    // Removed again: the database is shared with later test files that count the stored sets.
    const publishedAt = new Date("2001-01-01T00:00:00Z");
    const ours = and(eq(referenceRateSets.source, "ecb"), eq(referenceRateSets.publishedAt, publishedAt));
    await db.insert(referenceRateSets).values({ source: "ecb", base: "EUR", publishedAt, rates: { USD: "1.1" }, fetchedAt: publishedAt });
    try {
      assert.equal((await readiness(db, { screening: "sandbox", referenceRates: "ecb" }, [])).checks.referenceRates, "ok");
    } finally {
      await db.delete(referenceRateSets).where(ours);
    }
  });

  test("a database without this build's newest migration is not ready", async () => {
    const newest = sql`(select max(created_at) from drizzle.__drizzle_migrations)`;
    await db.execute(sql`update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = ${newest}`);
    try {
      const state = await readiness(db, { screening: "sandbox", referenceRates: "sandbox" }, []);
      assert.deepEqual([state.ready, state.checks.migrations], [false, "failed"]);
    } finally {
      await db.execute(sql`update drizzle.__drizzle_migrations set created_at = created_at + 1 where created_at = ${newest}`);
    }
    assert.equal((await readiness(db, { screening: "sandbox", referenceRates: "sandbox" }, [])).checks.migrations, "ok");
  });
});

describe("the console's Failed deliveries page lists deliveries still being retried (issue 20 item 3)", () => {
  test("a delivery whose attempts failed shows with its last error and next attempt; a fresh one and a sent one do not", async () => {
    const now = new Date();
    const nextAttempt = new Date(now.getTime() + 120_000);
    const row = (id: string, changes: Partial<typeof otpDeliveries.$inferInsert>) => ({
      id,
      partnerId: "ptn_ops_test",
      channel: "EMAIL",
      provider: "smtp",
      recipient: "ada@example.com",
      purpose: "REGISTRATION",
      language: "en",
      state: "PENDING",
      createdAt: now,
      ...changes,
    });
    const [retrying, fresh, sent, failed] = ["retry", "fresh", "sent", "failed"].map((k) => `dlv_${k}_${randomUUID().slice(0, 8)}`);
    await db
      .insert(otpDeliveries)
      .values([
        row(retrying, { attempts: 2, lastError: "Invalid login: 535 Authentication credentials invalid" }),
        row(fresh, {}),
        row(sent, { state: "SENT", attempts: 1, sentAt: now }),
        row(failed, { state: "FAILED", attempts: 6, lastError: "Invalid login: 535", failedAt: now }),
      ]);
    await enqueue(db, "notifications.otpDelivery", { deliveryId: retrying }, { runAt: nextAttempt, maxAttempts: 6 });
    const listed = (await retryingOtpDeliveries(db)).filter((r) => [retrying, fresh, sent, failed].includes(r.id));
    assert.deepEqual(
      listed.map((r) => [r.id, r.recipient, r.attempts, r.lastError, r.nextAttemptAt?.toISOString()]),
      [[retrying, "a***@example.com", 2, "Invalid login: 535 Authentication credentials invalid", nextAttempt.toISOString()]],
    );
    assert.deepEqual(
      (await failedOtpDeliveries(db)).filter((r) => [retrying, fresh, sent, failed].includes(r.id)).map((r) => r.id),
      [failed],
    );
    // The database is shared with later test files, whose workers must not meet this job.
    await db.delete(jobs).where(sql`${jobs.payload}->>'deliveryId' = ${retrying}`);
    await db.delete(otpDeliveries).where(inArray(otpDeliveries.id, [retrying, fresh, sent, failed]));
  });
});
