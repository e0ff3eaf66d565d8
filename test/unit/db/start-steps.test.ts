/**
 * ready() runs the start steps a process installed (lib/operations/runtime/start-steps.ts lists the
 * contexts'), once, in order, on the migrated database; before any are installed it refuses, so a
 * process entry point that forgot them fails at its first request instead of serving a database
 * never seeded. Platform names no context: the steps come from operations.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { sql } from "drizzle-orm";
import type { Db } from "@/db";
import { freshPgliteDir } from "../../support/pglite-template";

process.env.LOG_LEVEL ??= "silent";
if (!process.env.TEST_DB_URL) process.env.PGLITE_DIR = freshPgliteDir();
else process.env.DATABASE_URL = process.env.TEST_DB_URL;

after(async () => (await import("@/db")).closeDb());

test("ready() refuses before the process installed its start steps", async () => {
  const { ready } = await import("@/lib/platform/ready");
  await assert.rejects(ready(), /start steps were installed/);
});

test("the installed steps run once, in order, on the migrated database", async () => {
  const { ready, setStartSteps } = await import("@/lib/platform/ready");
  const ran: string[] = [];
  const seen: Db[] = [];
  setStartSteps([
    async (db) => {
      ran.push("first");
      seen.push(db);
      // Migrated before the first step: the steps' tables are there.
      await db.execute(sql`select 1 from operators limit 1`);
    },
    async (db) => {
      ran.push("second");
      seen.push(db);
    },
  ]);
  const [a, b] = await Promise.all([ready(), ready()]);
  const c = await ready();
  assert.deepEqual(ran, ["first", "second"]);
  assert.equal(a, b);
  assert.equal(a, c);
  assert.ok(seen.every((db) => db === a));
});

test("operations lists the contexts' start steps, the sandbox data first and the sanctions refresh last", async () => {
  const { startSteps } = await import("@/lib/operations/runtime/start-steps");
  assert.deepEqual(
    startSteps.map((step) => step.name),
    ["sandboxData", "signingKeys", "seedOperator", "installDefaultPack", "sanctionsRefresh"],
  );
});
