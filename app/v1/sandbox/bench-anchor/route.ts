import { eq } from "drizzle-orm";
import { statementsRun } from "@/db";
import { partners } from "@/db/schema";
import { config } from "@/lib/config";
import { ready } from "@/lib/platform/ready";

// GET /v1/sandbox/bench-anchor: the benchmark's bare anchor: a route handler doing one primary-key
// select and nothing else (no pipeline), to compare our routes against. Sandbox only.
export async function GET() {
  if (!config().sandbox) return new Response(null, { status: 404 });
  const db = await ready();
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, "partner_demo"));
  // With DB_COUNT_STATEMENTS, the statements this process has run (bench/calls.ts: per request).
  return Response.json({ id: row?.id ?? null, statements: statementsRun() });
}
