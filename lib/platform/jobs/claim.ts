import { randomUUID } from "node:crypto";
import { and, asc, eq, getTableColumns, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db, Executor } from "@/db";
import { prepared } from "@/db/prepared";
import { jobs } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";

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

/** One lane's part of a claim (lanes.ts): its filter, and how many jobs it takes (0: none this time). */
export interface LaneClaim extends Omit<ClaimFilter, "holding"> {
  limit: number;
}

export interface Claimed {
  jobs: ClaimedJob[];
  /** The window was full: due jobs beyond it may fit groups this claim filled (claim again). */
  more: boolean;
  /** Due jobs were left behind: seen in the window but not picked (their group filled up, or no slot). */
  left: boolean;
}

/** Claims up to `limit` due jobs for `leaseSeconds` (claimLanes with one lane). */
export async function claim(db: Db, now: Date, limit: number, filter: ClaimFilter, leaseSeconds: number): Promise<ClaimedJob[]> {
  const [claimed] = await claimLanes(db, now, [{ ...filter, limit }], filter.holding ?? [], leaseSeconds);
  return claimed.jobs;
}

/**
 * Claims due jobs for several lanes at once, in ONE prepared statement, one round trip (
 * a wake-up claimed lane by lane, three statements, most of them empty). FOR UPDATE SKIP LOCKED
 * lets several workers (processes or nodes) share the table without claiming the same job. Each
 * lane looks at a window of its own (its kinds, ordered by run_at), so one lane's backlog cannot
 * hide another's jobs; groups already at their limit are left out in SQL, so one group's backlog
 * cannot hide another's either. A window is a little larger than the lane's `limit` to fill the
 * slots of its other groups (rows locked but not picked are let go when the statement ends).
 * Answers each lane's claim, in the order given. Lanes must not share kinds.
 */
export async function claimLanes(db: Db, now: Date, lanes: readonly LaneClaim[], holding: readonly string[], leaseSeconds: number): Promise<Claimed[]> {
  if (lanes.every((l) => l.limit <= 0)) return lanes.map(() => ({ jobs: [], more: false, left: false }));
  const json = (value: unknown) => JSON.stringify(value);
  const finite = (l: LaneClaim) => l.perGroup !== undefined && Number.isFinite(l.perGroup);
  const windows = lanes.map((l) => (l.limit <= 0 ? 0 : finite(l) ? l.limit * 4 : l.limit));
  const values: Record<string, unknown> = {
    now: now.toISOString(),
    lease: addSeconds(now, leaseSeconds).toISOString(),
    token: randomUUID(),
    holding: json(holding),
  };
  lanes.forEach((l, i) => {
    Object.assign(values, {
      [`kinds${i}`]: l.kinds ? json(l.kinds) : null,
      [`notKinds${i}`]: json(l.notKinds ?? []),
      [`busy${i}`]: json(Object.fromEntries(l.busy ?? [])),
      [`perGroup${i}`]: finite(l) ? l.perGroup! : 2 ** 31 - 1,
      [`window${i}`]: windows[i],
      [`limit${i}`]: Math.max(0, l.limit),
    });
  });
  const key = lanes.map((l) => groupKey(l.groupBy)).join("_");
  const groupBys = lanes.map((l) => l.groupBy);
  const rows = await prepared(db, `jobs.claim:${key}`, (d) => buildClaim(d, groupBys, key)).execute(values);
  const claimed: Claimed[] = lanes.map(() => ({ jobs: [], more: false, left: false }));
  const seen = lanes.map(() => 0);
  for (const { seen: laneSeen, lane, ...job } of rows) {
    claimed[lane].jobs.push(job as ClaimedJob);
    seen[lane] = laneSeen;
  }
  // A lane with no row saw an empty window (a due job of a group with room is always picked).
  return claimed.map((c, i) => ({ jobs: c.jobs, more: windows[i] > 0 && seen[i] >= windows[i], left: seen[i] > c.jobs.length }));
}

/** A name per group expression, so each set of lanes' claim is prepared once. */
const groupKeys = new WeakMap<SQL, string>();
function groupKey(groupBy: SQL | undefined): string {
  if (!groupBy) return "id";
  let key = groupKeys.get(groupBy);
  if (!key) groupKeys.set(groupBy, (key = `g${++groupCount}`));
  return key;
}
let groupCount = 0;

function buildClaim(db: Db, groupBys: readonly (SQL | undefined)[], key: string) {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p("now")}::timestamptz`;
  // A lane's index is written into the statement (an integer of ours, never a value from outside).
  const busyIn = (lane: number, group: SQL) => sql`coalesce((${p(`busy${lane}`)}::jsonb ->> ${group})::int, 0)`;
  const windows = groupBys.map((groupBy, i) => {
    const groupOf = sql<string>`coalesce((${groupBy ?? sql`${jobs.id}`})::text, '')`;
    return db.$with(`claim_lane_${i}`).as(
      db
        .select({ id: jobs.id, runAt: jobs.runAt, grp: groupOf.as("grp"), lane: sql<number>`${sql.raw(String(i))}::int`.as("lane") })
        .from(jobs)
        .where(
          and(
            or(
              and(eq(jobs.state, "pending"), lte(jobs.runAt, now)),
              // A running job whose lease ran out belongs to a worker that died.
              and(eq(jobs.state, "running"), lte(jobs.lockedUntil, now)),
            ),
            // Lists as jsonb parameters: the statement's text stays the same, so it stays prepared.
            sql`(${p(`kinds${i}`)}::jsonb is null or ${p(`kinds${i}`)}::jsonb ? ${jobs.kind})`,
            sql`not (${p(`notKinds${i}`)}::jsonb ? ${jobs.kind})`,
            sql`not (${p("holding")}::jsonb ? ${jobs.id})`,
            sql`${busyIn(i, groupOf)} < ${p(`perGroup${i}`)}::int`,
          ),
        )
        .orderBy(asc(jobs.runAt), asc(jobs.id))
        .limit(p(`window${i}`))
        .for("update", { of: jobs, skipLocked: true }),
    );
  });
  const [first, ...rest] = windows.map((w) => db.select({ id: w.id, runAt: w.runAt, grp: w.grp, lane: w.lane }).from(w));
  const candidates = db.$with("claim_candidates").as(rest.reduce<typeof first>((all, next) => all.unionAll(next) as unknown as typeof first, first));
  // What a lane's own parameter is, for a row of that lane.
  const perLane = (lane: SQL, of: (i: number) => SQL) =>
    sql`(case ${lane} ${sql.join(
      groupBys.map((_, i) => sql`when ${sql.raw(String(i))} then ${of(i)}`),
      sql` `,
    )} end)`;
  const ranked = db.$with("claim_ranked").as(
    db
      .select({
        id: candidates.id,
        runAt: candidates.runAt,
        grp: candidates.grp,
        lane: candidates.lane,
        n: sql<number>`row_number() over (partition by ${candidates.lane}, ${candidates.grp} order by ${candidates.runAt}, ${candidates.id})`.as("n"),
      })
      .from(candidates),
  );
  // The jobs that fit their group, numbered within their lane: the first `limit` of each are taken.
  const fitting = db.$with("claim_fitting").as(
    db
      .select({
        id: ranked.id,
        grp: ranked.grp,
        lane: ranked.lane,
        k: sql<number>`row_number() over (partition by ${ranked.lane} order by ${ranked.runAt}, ${ranked.id})`.as("k"),
      })
      .from(ranked)
      .where(
        sql`${ranked.n} + ${perLane(sql`${ranked.lane}`, (i) => busyIn(i, sql`${ranked.grp}`))} <= ${perLane(sql`${ranked.lane}`, (i) => sql`${p(`perGroup${i}`)}::int`)}`,
      ),
  );
  const picked = db.$with("claim_picked").as(
    db
      .select({ id: fitting.id, grp: fitting.grp, lane: fitting.lane })
      .from(fitting)
      .where(sql`${fitting.k} <= ${perLane(sql`${fitting.lane}`, (i) => sql`${p(`limit${i}`)}::int`)}`),
  );
  const seen = perLane(sql`${picked.lane}`, (i) => sql`(select count(*) from ${windows[i]})::int`);
  return db
    .with(...windows, candidates, ranked, fitting, picked)
    .update(jobs)
    .set({ state: "running", lockedUntil: sql`${p("lease")}::timestamptz`, lockedBy: sql`${p("token")}::text`, attempts: sql`${jobs.attempts} + 1` })
    .from(picked)
    .where(eq(jobs.id, picked.id))
    .returning({ ...getTableColumns(jobs), group: picked.grp, lane: picked.lane, seen: sql<number>`${seen}` })
    .prepare(`jobs_claim_${key}`);
}

/**
 * The claim still held. A worker that outlived its lease (another took the job over, with a new
 * token) must not overwrite the new holder's outcome, so every write of the outcome checks it.
 */
export function held(job: ClaimedJob) {
  return and(eq(jobs.id, job.id), eq(jobs.state, "running"), eq(jobs.lockedBy, job.lockedBy));
}

/**
 * The outcome "done" of a job whose claim is still held, as a write not yet run (answers the id
 * when written): sent in the statement of the job's own last writes, its unit's effects or a
 * `perform` job's settlement, not as one of its own.
 */
export function doneWrite(db: Executor, job: ClaimedJob, finishedAt: Date) {
  return db.update(jobs).set({ state: "done", lockedUntil: null, lockedBy: null, finishedAt }).where(held(job)).returning({ id: jobs.id });
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

/** Claims as a jsonb parameter: [{ id, token }], so the statement's text is the same for any number. */
const heldClaims = (list: readonly ClaimedJob[]) => JSON.stringify(list.map((j) => ({ id: j.id, token: j.lockedBy })));
const heldIn = (p: ReturnType<typeof sql.placeholder>) =>
  sql`${jobs.state} = 'running' and (${jobs.id}, ${jobs.lockedBy}) in (select x.id, x.token from jsonb_to_recordset(${p}::jsonb) as x(id text, token text))`;

/**
 * The heartbeat of every claim a worker holds, in one statement (not one per job): extends each
 * lease still held; answers the ids renewed (a claim lost is not among them).
 */
export async function renewLeases(db: Db, held: readonly ClaimedJob[], until: Date): Promise<Set<string>> {
  if (held.length === 0) return new Set();
  const rows = await prepared(db, "jobs.renewLeases", (d) =>
    d
      .update(jobs)
      .set({ lockedUntil: sql`${sql.placeholder("until")}::timestamptz` })
      .where(heldIn(sql.placeholder("held")))
      .returning({ id: jobs.id })
      .prepare("jobs_renew_leases"),
  ).execute({ until: until.toISOString(), held: heldClaims(held) });
  return new Set(rows.map((r) => r.id));
}

/**
 * Records "done" for the `perform` jobs that ended together, in one statement (not one per job):
 * answers the ids recorded (a claim lost meanwhile is not among them, nothing written for it).
 */
export async function finishDone(db: Db, done: readonly ClaimedJob[], finishedAt: Date): Promise<Set<string>> {
  if (done.length === 0) return new Set();
  const rows = await prepared(db, "jobs.finishDone", (d) =>
    d
      .update(jobs)
      .set({ state: "done", lockedUntil: null, lockedBy: null, finishedAt: sql`${sql.placeholder("at")}::timestamptz` })
      .where(heldIn(sql.placeholder("held")))
      .returning({ id: jobs.id })
      .prepare("jobs_finish_done"),
  ).execute({ at: finishedAt.toISOString(), held: heldClaims(done) });
  return new Set(rows.map((r) => r.id));
}

/**
 * The outcomes "done" of jobs ending close together, written together (finishDone): the jobs that
 * end in the same turn of the event loop in one statement, and at most one such statement in
 * flight: the jobs that end meanwhile wait for it and go in the next. A job alone is written at
 * once, as before; under load a statement records several.
 */
export class DoneBatch {
  private waiting: { job: ClaimedJob; resolve: (held: boolean) => void; reject: (err: unknown) => void }[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  /** Records the job done; true when its claim was still held (else nothing was written for it). */
  done(job: ClaimedJob): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      // After the current turn's other jobs: those ending in the same turn go in one statement.
      if (!this.writing) {
        this.writing = true;
        queueMicrotask(() => void this.write());
      }
    });
  }

  private async write(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const recorded = await finishDone(
          this.db,
          batch.map((w) => w.job),
          clock.now(),
        );
        for (const w of batch) w.resolve(recorded.has(w.job.id));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.writing = false;
  }
}
