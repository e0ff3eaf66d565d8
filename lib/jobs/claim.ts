import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Db, Executor } from "@/db";
import { jobs } from "@/db/schema";
import { addSeconds } from "@/lib/clock";

export type JobRow = typeof jobs.$inferSelect;
/** A claimed job: `lockedBy` is this claim's token; `group` its concurrency group (lanes.ts). */
export type ClaimedJob = JobRow & { lockedBy: string; group: string };

export interface ClaimFilter {
  /** Only these kinds; and never these. */
  kinds?: readonly string[];
  notKinds?: readonly string[];
  /** Jobs this worker already holds: a clock moved forward must not make it claim its own jobs. */
  holding?: readonly string[];
  /** At most `perGroup` running jobs per group (the jobs already running here count, in `busy`). */
  groupBy?: SQL;
  perGroup?: number;
  busy?: ReadonlyMap<string, number>;
}

/**
 * Claims up to `limit` due jobs for `leaseSeconds`. FOR UPDATE SKIP LOCKED lets several workers
 * (processes or nodes) share the table without claiming the same job. Groups already at their
 * limit are left out in SQL, so one group's backlog cannot hide another's jobs; the window locked
 * is a little larger than `limit` to fill the slots of the other groups (rows locked but not
 * picked are let go at commit).
 */
export async function claim(db: Db, now: Date, limit: number, filter: ClaimFilter, leaseSeconds: number): Promise<ClaimedJob[]> {
  if (limit <= 0) return [];
  const groupOf = sql<string>`coalesce((${filter.groupBy ?? sql`${jobs.id}`})::text, '')`;
  const perGroup = filter.perGroup ?? Number.POSITIVE_INFINITY;
  const busy = filter.busy ?? new Map<string, number>();
  const saturated = [...busy].filter(([, n]) => n >= perGroup).map(([group]) => group);
  const due = and(
    or(
      and(eq(jobs.state, "pending"), lte(jobs.runAt, now)),
      // A running job whose lease ran out belongs to a worker that died.
      and(eq(jobs.state, "running"), lte(jobs.lockedUntil, now)),
    ),
    filter.kinds ? inArray(jobs.kind, [...filter.kinds]) : undefined,
    filter.notKinds?.length ? notInArray(jobs.kind, [...filter.notKinds]) : undefined,
    filter.holding?.length ? notInArray(jobs.id, [...filter.holding]) : undefined,
    saturated.length ? notInArray(groupOf, saturated) : undefined,
  );
  const window = Number.isFinite(perGroup) ? limit * 4 : limit;
  return db.transaction(async (tx) => {
    const candidates = await tx
      .select({ job: jobs, group: groupOf })
      .from(jobs)
      .where(due)
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(window)
      .for("update", { of: jobs, skipLocked: true });
    const taken = new Map<string, number>();
    const picked = candidates.filter(({ group }) => {
      const n = (busy.get(group) ?? 0) + (taken.get(group) ?? 0);
      if (n >= perGroup) return false;
      taken.set(group, (taken.get(group) ?? 0) + 1);
      return true;
    });
    const rows = picked.slice(0, limit);
    if (rows.length === 0) return [];
    const lease = addSeconds(now, leaseSeconds);
    const token = randomUUID();
    await tx
      .update(jobs)
      .set({ state: "running", lockedUntil: lease, lockedBy: token, attempts: sql`${jobs.attempts} + 1` })
      .where(
        inArray(
          jobs.id,
          rows.map((r) => r.job.id),
        ),
      );
    return rows.map(({ job, group }) => ({ ...job, state: "running", lockedUntil: lease, lockedBy: token, attempts: job.attempts + 1, group }));
  });
}

/**
 * The claim still held. A worker that outlived its lease (another took the job over, with a new
 * token) must not overwrite the new holder's outcome, so every write of the outcome checks it.
 */
export function held(job: ClaimedJob) {
  return and(eq(jobs.id, job.id), eq(jobs.state, "running"), eq(jobs.lockedBy, job.lockedBy));
}

/** Records the outcome and releases the claim; false when the claim was lost (nothing written). */
export async function finish(db: Executor, job: ClaimedJob, set: Partial<JobRow>): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: null, lockedBy: null, ...set })
    .where(held(job))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** The heartbeat: extends a held claim's lease; false when the claim was lost. */
export async function renewLease(db: Db, job: ClaimedJob, until: Date): Promise<boolean> {
  const rows = await db.update(jobs).set({ lockedUntil: until }).where(held(job)).returning({ id: jobs.id });
  return rows.length > 0;
}
