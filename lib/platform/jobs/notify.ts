import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { config } from "@/lib/platform/config";
import { logger } from "@/lib/platform/log";

/**
 * Wake-on-commit between processes: on PostgreSQL a transaction that enqueues a job
 * due now also sends NOTIFY, which PostgreSQL delivers when (and only if) it commits; every worker
 * LISTENs, so a job written by one app process is claimed by any worker within milliseconds, not
 * at its next poll. PGlite is one process: the in-process wake (./wake.ts) is enough there.
 */
const CHANNEL = "remit_jobs";

/**
 * This process, as the payload of its NOTIFYs: a commit here wakes this process's worker in-process
 * already (the unit of work, lib/platform/jobs/queue.ts), so its own NOTIFY coming back is ignored; without
 * that, every commit with a job made the worker claim in every lane twice.
 */
const SENDER = randomUUID();

/** The NOTIFY, sent when `when` holds, as a column of another statement's final select (undefined on PGlite). */
export function notifyJobsDueSql(when: SQL = sql`true`): SQL | undefined {
  return config().DATABASE_URL ? sql`(select pg_notify(${CHANNEL}, ${SENDER}) where ${when}) as notified` : undefined;
}

/** LISTENs on a dedicated connection (postgres.js reconnects it); returns the unlisten. */
export async function listenForJobs(onWake: () => void): Promise<() => Promise<void>> {
  const url = config().DATABASE_URL;
  if (!url) return async () => {};
  const { default: postgres } = await import("postgres");
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client.listen(CHANNEL, (sender) => {
      if (sender !== SENDER) onWake();
    });
  } catch (err) {
    logger().warn({ err }, "LISTEN for jobs failed: the worker falls back to polling");
  }
  return () => client.end({ timeout: 1 });
}
