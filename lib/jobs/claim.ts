import { randomUUID } from "node:crypto";
import { and, asc, eq, getTableColumns, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db, Executor } from "@/db";
import { prepared } from "@/db/prepared";
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

export interface Claimed {
  jobs: ClaimedJob[];
  /** The window was full: due jobs beyond it may fit groups this claim filled (claim again). */
  more: boolean;
  /** Due jobs were left behind: seen in the window but not picked (their group filled up, or no slot). */
  left: boolean;
}

/**
 * Claims up to `limit` due jobs for `leaseSeconds`. FOR UPDATE SKIP LOCKED lets several workers
 * (processes or nodes) share the table without claiming the same job. Groups already at their
 * limit are left out in SQL, so one group's backlog cannot hide another's jobs; the window locked
 * is a little larger than `limit` to fill the slots of the other groups (rows locked but not
 * picked are let go when the statement ends).
 */
export async function claim(db: Db, now: Date, limit: number, filter: ClaimFilter, leaseSeconds: number): Promise<ClaimedJob[]> {
  return (await claimBatch(db, now, limit, filter, leaseSeconds)).jobs;
}

/**
 * claim(), telling whether to claim again. One prepared statement (lock, pick per group, mark
 * running), one round trip: a claim was four (BEGIN, select, update, COMMIT), and with a job
 * costing a dozen, claims bounded how fast a worker drained a kind (docs/performance.md).
 */
export async function claimBatch(db: Db, now: Date, limit: number, filter: ClaimFilter, leaseSeconds: number): Promise<Claimed> {
  if (limit <= 0) return { jobs: [], more: false, left: false };
  const finite = filter.perGroup !== undefined && Number.isFinite(filter.perGroup);
  const window = finite ? limit * 4 : limit;
  const json = (list: readonly string[] | undefined) => JSON.stringify(list ?? []);
  const rows = await prepared(db, `jobs.claim:${groupKey(filter.groupBy)}`, (d) => buildClaim(d, filter.groupBy, groupKey(filter.groupBy))).execute({
    now: now.toISOString(),
    lease: addSeconds(now, leaseSeconds).toISOString(),
    token: randomUUID(),
    kinds: filter.kinds ? json(filter.kinds) : null,
    notKinds: json(filter.notKinds),
    holding: json(filter.holding),
    busy: JSON.stringify(Object.fromEntries(filter.busy ?? [])),
    perGroup: finite ? filter.perGroup! : 2 ** 31 - 1,
    window,
    limit,
  });
  const claimed = rows.map(({ seen: _, ...job }) => job as ClaimedJob);
  // No row: the window was empty (a due job of a group with room is always picked).
  const seen = rows.length > 0 ? rows[0].seen : 0;
  return { jobs: claimed, more: seen >= window, left: seen > claimed.length };
}

/** A name per group expression, so each lane's claim is prepared once. */
const groupKeys = new WeakMap<SQL, string>();
function groupKey(groupBy: SQL | undefined): string {
  if (!groupBy) return "id";
  let key = groupKeys.get(groupBy);
  if (!key) groupKeys.set(groupBy, (key = `g${++groupCount}`));
  return key;
}
let groupCount = 0;

function buildClaim(db: Db, groupBy: SQL | undefined, key: string) {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p("now")}::timestamptz`;
  const groupOf = sql<string>`coalesce((${groupBy ?? sql`${jobs.id}`})::text, '')`;
  const busyIn = (group: SQL) => sql`coalesce((${p("busy")}::jsonb ->> ${group})::int, 0)`;
  const candidates = db.$with("claim_candidates").as(
    db
      .select({ id: jobs.id, runAt: jobs.runAt, grp: groupOf.as("grp") })
      .from(jobs)
      .where(
        and(
          or(
            and(eq(jobs.state, "pending"), lte(jobs.runAt, now)),
            // A running job whose lease ran out belongs to a worker that died.
            and(eq(jobs.state, "running"), lte(jobs.lockedUntil, now)),
          ),
          // Lists as jsonb parameters: the statement's text stays the same, so it stays prepared.
          sql`(${p("kinds")}::jsonb is null or ${p("kinds")}::jsonb ? ${jobs.kind})`,
          sql`not (${p("notKinds")}::jsonb ? ${jobs.kind})`,
          sql`not (${p("holding")}::jsonb ? ${jobs.id})`,
          sql`${busyIn(groupOf)} < ${p("perGroup")}::int`,
        ),
      )
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(p("window"))
      .for("update", { of: jobs, skipLocked: true }),
  );
  const ranked = db.$with("claim_ranked").as(
    db
      .select({
        id: candidates.id,
        runAt: candidates.runAt,
        grp: candidates.grp,
        n: sql<number>`row_number() over (partition by ${candidates.grp} order by ${candidates.runAt}, ${candidates.id})`.as("n"),
      })
      .from(candidates),
  );
  const picked = db.$with("claim_picked").as(
    db
      .select({ id: ranked.id, grp: ranked.grp })
      .from(ranked)
      .where(sql`${ranked.n} + ${busyIn(sql`${ranked.grp}`)} <= ${p("perGroup")}::int`)
      .orderBy(asc(ranked.runAt), asc(ranked.id))
      .limit(p("limit")),
  );
  return db
    .with(candidates, ranked, picked)
    .update(jobs)
    .set({ state: "running", lockedUntil: sql`${p("lease")}::timestamptz`, lockedBy: sql`${p("token")}::text`, attempts: sql`${jobs.attempts} + 1` })
    .from(picked)
    .where(eq(jobs.id, picked.id))
    .returning({ ...getTableColumns(jobs), group: picked.grp, seen: sql<number>`(select count(*) from ${candidates})::int` })
    .prepare(`jobs_claim_${key}`);
}

/**
 * The claim still held. A worker that outlived its lease (another took the job over, with a new
 * token) must not overwrite the new holder's outcome, so every write of the outcome checks it.
 */
export function held(job: ClaimedJob) {
  return and(eq(jobs.id, job.id), eq(jobs.state, "running"), eq(jobs.lockedBy, job.lockedBy));
}

/** Records the outcome and releases the claim; false when the claim was lost (nothing written). */
export async function finish(db: Executor, job: ClaimedJob, set: { [K in keyof JobRow]?: JobRow[K] | SQL }): Promise<boolean> {
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
