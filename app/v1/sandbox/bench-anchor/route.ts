import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { statementsRun } from "@/db";
import { idempotencyKeys, partners } from "@/db/schema";
import { clock } from "@/lib/clock";
import { config } from "@/lib/config";
import { ready } from "@/lib/platform/ready";

// The benchmark's bare anchors (bench/calls.ts), to compare our routes against. Sandbox only.

// GET /v1/sandbox/bench-anchor: a route handler doing one primary-key select and nothing else (no
// pipeline).
export async function GET() {
  if (!config().sandbox) return new Response(null, { status: 404 });
  const db = await ready();
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, "partner_demo"));
  // With DB_COUNT_STATEMENTS, the statements this process has run (bench/calls.ts: per request).
  return Response.json({ id: row?.id ?? null, statements: statementsRun() });
}

// POST /v1/sandbox/bench-anchor: the floor of any write: one transaction committing one row, no
// pipeline. The row is an already-expired Idempotency-Key under a scope no caller has, so the
// periodic purge removes it.
export async function POST() {
  if (!config().sandbox) return new Response(null, { status: 404 });
  const db = await ready();
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx.insert(idempotencyKeys).values({
      scope: "bench-anchor",
      key: randomUUID(),
      fingerprint: "",
      state: "done",
      lockedUntil: now,
      expiresAt: now,
      createdAt: now,
    });
  });
  return Response.json({ statements: statementsRun() });
}
