import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db, Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { auditLog, events, partners, subscriptions } from "@/db/schema";
import { writeTogether, type Write } from "@/db/write-together";
import { clock } from "@/lib/platform/clock";
import { DomainError, unavailable, unexpected } from "@/lib/platform/errors";
import type { EmitInput } from "@/db/schema/events";
import type { JobKind, JobPayload } from "@/lib/platform/jobs/kinds";
import { notifyJobsDueSql } from "@/lib/platform/jobs/notify";
import { dedupeKey, jobDueIn, jobInsert, jobInsertWhen, nudgeJobStatement, type EnqueueOptions } from "@/lib/platform/jobs/queue";
import { wakeWorker } from "@/lib/platform/jobs/wake";
import { logger } from "@/lib/platform/log";
import { auditRow, type AuditEntry, type Operator } from "./audit";
import { sendPosting, type Posting } from "./post-entry";
import { isTemporarilyUnavailable } from "./unavailable";

/** Who a unit of work acts for: logged with an unexpected error, and the author of its audit entries. */
export type Actor =
  | { kind: "partner"; id: string }
  | { kind: "customer"; id: string; partnerId: string }
  | { kind: "operator"; operator: Operator }
  | { kind: "webview" }
  | { kind: "job"; id: string; jobKind: string }
  | { kind: "system"; operator?: Operator };

/**
 * The effects of a unit of work: collected while it runs, written together when it commits,
 * dropped when it rolls back (the promises resolve at once: nothing waits on the database).
 */
export interface Effects {
  events: { emit(input: Omit<EmitInput, "now"> & { now?: Date }): Promise<{ eventId: string }> };
  jobs: {
    schedule<K extends JobKind>(kind: K, payload: JobPayload<K>, opts: EnqueueOptions): Promise<void>;
    /**
     * Moves the waiting (or running) job of this dedupe key forward to now (the next event of a
     * subscription after a delivery): written with the effects; this process's worker is woken
     * when it moved one. `key`: the key, or a scalar subquery of it.
     */
    nudge(key: string | SQL): Promise<void>;
  };
  audit: { record(entry: AuditEntry, by?: Operator): Promise<void> };
  /** A journal entry, posted first at commit: `effectsOf(tx).ledger.post(posting({ ... }))` (lib/finance/ledger/post.ts). */
  ledger: { post(posting: Posting): Promise<void> };
  /**
   * Writes of the unit that nothing in it reads back (a row marked used, the insert of a row only
   * the answer names): sent at commit with the effects. One row is written once per unit this way.
   */
  atCommit(...writes: SQLWrapper[]): Promise<void>;
  /**
   * Writes that later reads of the unit must see (a session closed and its link retired, which a
   * second close in the same unit must find closed): sent at once, together as one statement.
   */
  writeNow(...writes: SQLWrapper[]): Promise<void>;
}

/** One unit of work: its transaction, its instant, who it acts for, and its effects. */
export interface UnitContext extends Effects {
  tx: Tx;
  now: Date;
  actor: Actor;
}

/** How a unit of work ended: its value, or the error it answers with (and whether its writes stand). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: DomainError; committed: boolean };

export interface UnitOptions<T> {
  actor?: Actor;
  /** The unit's instant (an endpoint's, read before the unit opens); now by default. */
  now?: Date;
  /**
   * The database, or how to get it (lib/platform/ready.ts's ready: adapters pass the function, so a
   * database lost before the transaction opens is mapped like one lost inside it).
   */
  db: Db | (() => Promise<Db>);
  /**
   * Runs in the same unit once the outcome is known and the writes are to commit (success, or a
   * keepChanges error), before the effects are written: e.g. the Idempotency-Key records the answer
   * with the work it answers (through atCommit: in the effects' statement).
   */
  seal?: (unit: UnitContext, outcome: Outcome<T>) => Promise<void>;
  /** Fields logged with an unexpected error (route, operator, correlation id). */
  context?: Record<string, unknown>;
  /**
   * A write that must write a row (RETURNING one), sent in the effects' statement at commit (a
   * job's "done" while its claim is held, not a statement of its own): when it writes none, the
   * unit rolls back and throws `lost()`.
   */
  finish?: { write: () => SQLWrapper; lost: () => Error };
}

/**
 * The one mapping of a failure to its answer: a DomainError as it is; a lost database (before
 * or after the transaction opened) 503 internal.unavailable; anything else 500 server.unexpected.
 * The last two are logged with `context`.
 */
export function toDomainError(err: unknown, context: Record<string, unknown> = {}): DomainError {
  if (err instanceof DomainError) return err;
  const error = isTemporarilyUnavailable(err) ? unavailable() : unexpected();
  logger().error({ err, ...context }, error.code === "internal.unavailable" ? "database unavailable" : "unexpected error");
  return error;
}

/** Thrown inside the transaction to roll it back while keeping the error as the outcome. */
class Rollback extends Error {
  constructor(readonly error: DomainError) {
    super(error.code);
  }
}

type Pending = {
  events: (EmitInput & { eventId: string })[];
  jobs: { kind: string; payload: unknown; opts: EnqueueOptions }[];
  nudges: (string | SQL)[];
  audit: { entry: AuditEntry; by: Operator }[];
  ledger: Posting[];
  writes: SQLWrapper[];
};

function operatorOf(actor: Actor): Operator | undefined {
  return actor.kind === "operator" ? actor.operator : actor.kind === "system" ? actor.operator : undefined;
}

/** Collects effects into `pending`; `then` runs after each one (nothing in a unit; a flush outside one). */
function collector(tx: Executor, now: Date, actor: Actor, then: (pending: Pending) => Promise<void> = async () => {}): { pending: Pending; effects: Effects } {
  const pending: Pending = { events: [], jobs: [], nudges: [], audit: [], ledger: [], writes: [] };
  const add = (put: () => void) => {
    put();
    return then(pending);
  };
  const effects: Effects = {
    events: {
      emit: async (input) => {
        const eventId = newId("evt");
        await add(() => pending.events.push({ ...input, now: input.now ?? now, eventId }));
        return { eventId };
      },
    },
    jobs: {
      schedule: (kind, payload, opts) => add(() => pending.jobs.push({ kind, payload, opts })),
      nudge: (key) => add(() => pending.nudges.push(key)),
    },
    audit: {
      record: (entry, by = operatorOf(actor)) => {
        if (!by) throw new Error("audit.record: the unit acts for no operator");
        return add(() => pending.audit.push({ entry, by }));
      },
    },
    ledger: { post: (posting) => add(() => pending.ledger.push(posting)) },
    atCommit: (...writes) => add(() => pending.writes.push(...writes)),
    writeNow: async (...writes) => {
      if (writes.length > 0) await writeTogether(tx, writes);
    },
  };
  return { pending, effects };
}

// The unit each open transaction belongs to: how domain code handed only `tx` reaches its effects.
const units = new WeakMap<object, Effects>();

/**
 * The effects of the unit of work `tx` runs in. Outside one (a test's own transaction, a job's
 * autocommit database) each effect is written at once, as one statement.
 */
export function effectsOf(tx: Executor, actor: Actor = { kind: "system" }): Effects {
  const unit = units.get(tx);
  if (unit) return unit;
  return collector(tx, clock.now(), actor, async (pending) => {
    const taken: Pending = {
      events: pending.events.splice(0),
      jobs: pending.jobs.splice(0),
      nudges: pending.nudges.splice(0),
      audit: pending.audit.splice(0),
      ledger: pending.ledger.splice(0),
      writes: pending.writes.splice(0),
    };
    if (await flush(tx as Tx, taken, clock.now())) wakeWorker();
  }).effects;
}

/**
 * The effects `add` makes, written together: at commit inside a unit of work (they are its
 * effects), otherwise as one statement once `add` returns (a job's autocommit database: a
 * statement is atomic, so they are written all or none without a transaction).
 */
export async function withEffects(ex: Executor, add: (effects: Effects) => Promise<void>, actor: Actor = { kind: "system" }): Promise<void> {
  const unit = units.get(ex);
  if (unit) return add(unit);
  const { pending, effects } = collector(ex, clock.now(), actor);
  await add(effects);
  if (await flush(ex as Tx, pending, clock.now())) wakeWorker();
}

/**
 * The effects written at commit, in the unit's transaction: postings (each checked and balanced,
 * lib/finance/ledger/post.ts), then one statement for the events (each subscription's counter row raised
 * once by its count: sequence numbers follow commit order), their deliveries (a job only where the
 * partner's endpoint is ready; otherwise the event is written undeliverable), the jobs, the audit
 * entries, the nudges and, on PostgreSQL, the NOTIFY that wakes other processes' workers for a
 * job due now. Returns whether a job was written or nudged.
 */
async function flush(tx: Tx, pending: Pending, now: Date, finish?: UnitOptions<unknown>["finish"]): Promise<boolean> {
  for (const posting of pending.ledger) await sendPosting(tx, posting);
  const writes: Write[] = [...pending.writes];
  if (finish) writes.push({ name: "unit_finish", write: finish.write() });
  const eventRows: SQL[] = [];
  const deliveryRows: SQL[] = [];
  const jobs = [...pending.jobs];
  const bySubscription = new Map<string, Pending["events"]>();
  for (const e of pending.events) bySubscription.set(e.subscriptionId, [...(bySubscription.get(e.subscriptionId) ?? []), e]);
  [...bySubscription.entries()].forEach(([subscriptionId, list], s) => {
    const counter = `event_counter_${s}`;
    writes.push({ name: counter, write: subscriptionCounter(subscriptionId, list.length) });
    list.forEach(({ eventId, ...input }, i) => {
      const name = `event_${s}_${i}`;
      writes.push({ name, write: eventInsert(counter, list.length - 1 - i, eventId, input) });
      eventRows.push(sql`select 1 from ${sql.identifier(name)}`);
      // 8 attempts: the Standard Webhooks schedule of lib/partners/webhooks/deliver-job.ts (about 28 hours).
      const opts = { runAt: input.now, dedupeKey: dedupeKey("webhooks.deliver", eventId), maxAttempts: 8 };
      const delivery = `delivery_${s}_${i}`;
      writes.push({ name: delivery, write: jobInsertWhen("webhooks.deliver", { eventId }, opts, counter, sql`deliverable`) });
      deliveryRows.push(sql`select 1 from ${sql.identifier(delivery)}`);
    });
  });
  for (const job of jobs) writes.push(jobInsert(tx, job.kind, job.payload, job.opts));
  const nudgeRows = pending.nudges.map((key, i) => {
    const name = `nudged_${i}`;
    writes.push({ name, write: nudgeJobStatement(tx, key, now) });
    return sql`select 1 from ${sql.identifier(name)}`;
  });
  for (const { entry, by } of pending.audit) {
    writes.push(tx.insert(auditLog).values(auditRow(by, entry, now)));
  }
  if (writes.length === 0) return false;
  const count = (rows: SQL[]) => (rows.length > 0 ? sql`(select count(*) from (${sql.join(rows, sql` union all `)}) e)` : sql`0`);
  const deliveries = count(deliveryRows);
  // A delivery is due now, but written only where the endpoint is ready: wake the workers for it then.
  const due = jobs.some((j) => j.opts.runAt.getTime() <= clock.now().getTime()) ? sql`true` : sql`${deliveries} > 0`;
  const notify = notifyJobsDueSql(due);
  // A nudge wakes this process's worker only (as it always has): no NOTIFY for it.
  const nudged = nudgeRows.length > 0 ? sql`, ${count(nudgeRows)} as nudged` : sql``;
  const finished = finish ? sql`, (select count(*) from unit_finish) as finished` : sql``;
  const [row] = await writeTogether<{ written: number | string; deliveries: number | string; nudged?: number | string; finished?: number | string }>(
    tx,
    writes,
    sql`select ${count(eventRows)} as written, ${deliveries} as deliveries${nudged}${finished}${notify ? sql`, ${notify}` : sql``}`,
  );
  if (Number(row?.written ?? 0) !== eventRows.length) throw new Error("unit of work: an event names an unknown subscription");
  if (finish && Number(row?.finished ?? 0) === 0) throw finish.lost();
  return jobs.length > 0 || Number(row?.deliveries ?? 0) > 0 || Number(row?.nudged ?? 0) > 0;
}

/**
 * Raises a subscription's event counter by `count` (one UPDATE: concurrent units emitting for one
 * subscription wait on its row, so sequence numbers follow commit order); answers `sequence` (the
 * new value), `partner_id` and `deliverable` (the partner's webhook endpoint is ready).
 */
function subscriptionCounter(subscriptionId: string, count: number): SQL {
  const c = (col: { name: string }) => sql.identifier(col.name);
  return sql`update ${subscriptions} set ${c(subscriptions.eventSequence)} = ${c(subscriptions.eventSequence)} + ${count}
    where ${c(subscriptions.id)} = ${subscriptionId} returning ${c(subscriptions.eventSequence)} as sequence, ${c(subscriptions.partnerId)} as partner_id,
      ${endpointReadySql(sql`${subscriptions.partnerId}`)} as deliverable`;
}

/**
 * webhookEndpointState(partner) = "ready" (lib/partners/webhooks/endpoint.ts) as SQL over a
 * partner id: an event written for a partner without a ready endpoint is settled undeliverable in
 * the statement that writes it, with no delivery job, as the job would have settled it a moment
 * later. Kept here, by the one statement that uses it: the platform imports no context.
 */
function endpointReadySql(partnerId: SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${partners} where ${partners.id} = ${partnerId} and ${partners.webhookUrl} is not null
    and ${partners.webhookUrl} <> '' and ${partners.webhookSecret} is not null and ${partners.webhookSecret} <> '' and ${partners.webhookDisabledAt} is null)`;
}

/** An event numbered from its subscription's counter row (raised by the count, so `back` steps below its new value). */
function eventInsert(counter: string, back: number, eventId: string, input: EmitInput): SQL {
  const c = (col: { name: string }) => sql.identifier(col.name);
  const cols = [
    events.id,
    events.partnerId,
    events.subscriptionId,
    events.sequence,
    events.eventType,
    events.body,
    events.occurredAt,
    events.createdAt,
    events.deliveryState,
  ];
  // The body as delivered; jsonb keeps no key order, so the sequence is added in the statement.
  const body = { eventId, eventType: input.eventType, occurredAt: input.now.toISOString(), subscriptionId: input.subscriptionId, data: input.data };
  const seq = sql`(${sql.identifier(counter)}.sequence - ${back})`;
  return sql`insert into ${events} (${sql.join(cols.map(c), sql`, `)})
    select ${eventId}, ${sql.identifier(counter)}.partner_id, ${input.subscriptionId}, ${seq}, ${input.eventType},
      ${JSON.stringify(body)}::jsonb || jsonb_build_object('sequence', ${seq}),
      ${sql.param(input.now, events.occurredAt)}, ${sql.param(input.now, events.createdAt)},
      case when ${sql.identifier(counter)}.deliverable then 'pending' else 'undeliverable' end
    from ${sql.identifier(counter)} returning 1`;
}

/**
 * The one way a state change runs, whoever asks (API endpoint, webview action, console action,
 * job, page): the work in one transaction, its effects written together at commit, the worker
 * woken after it. A DomainError is the answer; with `keepChanges` (a counted failure, an expiry
 * found on the way) its writes and effects commit with it; any other error rolls everything back
 * and drops the effects. Throws what the work threw (a job runner records it as it is); runUnit
 * maps it.
 */
export async function withinUnit<T>(work: (unit: UnitContext) => Promise<T>, options: UnitOptions<T>): Promise<Outcome<T>> {
  const db = typeof options.db === "function" ? await options.db() : options.db;
  const now = options.now ?? clock.now();
  const actor = options.actor ?? { kind: "system" };
  let wroteJobs = false;
  let outcome: Outcome<T>;
  try {
    outcome = await db.transaction(async (tx): Promise<Outcome<T>> => {
      const { pending, effects } = collector(tx, now, actor);
      units.set(tx, effects);
      const unit = { tx, now, actor, ...effects };
      let settled: Outcome<T>;
      try {
        settled = { ok: true, value: await work(unit) };
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        if (!err.keepChanges) throw new Rollback(err);
        settled = { ok: false, error: err, committed: true };
      }
      await options.seal?.(unit, settled);
      // A job due now inserted by the queue itself (the worker rescheduling a periodic job) wakes this process's worker too.
      // A unit that ends in an error (kept) does not finish: its `finish` is not written.
      wroteJobs = (await flush(tx, pending, now, settled.ok ? options.finish : undefined)) || jobDueIn(tx);
      return settled;
    });
  } catch (err) {
    if (err instanceof Rollback) return { ok: false, error: err.error, committed: false };
    throw err;
  }
  // Only a commit that wrote a job due now wakes this process's worker: a wake is a claim in every
  // lane, and a write without a job (a quote, an accept) has nothing for it.
  if (wroteJobs) wakeWorker();
  return outcome;
}

/** withinUnit with every failure mapped (toDomainError): what the adapters answer with. */
export async function runUnit<T>(work: (unit: UnitContext) => Promise<T>, options: UnitOptions<T>): Promise<Outcome<T>> {
  try {
    return await withinUnit(work, options);
  } catch (err) {
    return { ok: false, error: toDomainError(err, options.context), committed: false };
  }
}

/** withinUnit for a caller that wants the value, or what failed thrown as it is (its own caller maps it). */
export async function inUnit<T>(work: (unit: UnitContext) => Promise<T>, options: UnitOptions<T>): Promise<T> {
  const outcome = await withinUnit(work, options);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/**
 * Work done before a unit of work opens (a remote fetch: no network call inside a transaction),
 * with the same error mapping.
 */
export async function outside<T>(work: () => Promise<T>, context: Record<string, unknown> = {}): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    return { ok: false, error: toDomainError(err, context), committed: false };
  }
}
