import type { Db } from "@/db";
import { clock } from "@/lib/platform/clock";
import { logger } from "@/lib/platform/log";
import { claimLanes, DoneBatch, type ClaimedJob } from "./claim";
import type { JobRegistry } from "./define";
import type { Lane, WorkerSettings } from "./lanes";
import { Heartbeat, runOne } from "./worker";

interface Running {
  lane: string;
  group: string;
}

/**
 * One worker's running jobs, by lane: each lane claims only into its own free slots, and at most
 * `perGroup` jobs of a group (a kind, a webhook partner), so no lane or group can hold the others
 * back. Jobs run concurrently; `fill` claims, `onFreed` tells when one ended.
 */
export class JobPool {
  private readonly running = new Map<string, Running>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly heartbeat: Heartbeat;
  /** The "done" of jobs ending together, in one statement. */
  private readonly doneBatch: DoneBatch;
  /** Lanes whose last claim may have left due jobs behind (its slots or one of its groups full). */
  private readonly backlog = new Set<string>();
  constructor(
    private readonly db: Db,
    private readonly registry: JobRegistry,
    private readonly settings: WorkerSettings,
    /** Called when a running job ends: its slot is free for the next due job (refill()). */
    private readonly onFreed: () => void = () => {},
  ) {
    this.heartbeat = new Heartbeat(db, settings);
    this.doneBatch = new DoneBatch(db);
  }

  get size(): number {
    return this.running.size;
  }

  /** Claims due jobs into every lane's free slots and starts them (a wake-up, a poll); returns how many started. */
  async fill(): Promise<number> {
    return this.fillLanes(this.settings.lanes);
  }

  /**
   * After jobs ended: claims again only in the lanes that left due jobs behind. A lane's other due
   * jobs are new ones, and each wakes the worker (fill()): a commit that writes one, a nudge; a
   * delayed one comes due at a poll. A claim per lane per job ended was most of a job's cost.
   */
  async refill(): Promise<number> {
    return this.fillLanes(this.settings.lanes.filter((lane) => this.backlog.has(lane.name)));
  }

  /** Every lane asked for claims in one statement (claimLanes); again for those whose window was full. */
  private async fillLanes(lanes: readonly Lane[]): Promise<number> {
    let started = 0;
    let asked = new Set(lanes);
    // Again while slots remain and the window was full: groups it filled are left out of the next.
    for (let round = 0; round < 4 && asked.size > 0; round++) {
      const { claimed, more } = await this.claimFor(asked);
      started += claimed;
      asked = more;
    }
    return started;
  }

  private async claimFor(asked: ReadonlySet<Lane>): Promise<{ claimed: number; more: Set<Lane> }> {
    const lanes = this.settings.lanes;
    const wanted = lanes.map((lane) => {
      const busy = new Map<string, number>();
      let inLane = 0;
      for (const r of this.running.values()) {
        if (r.lane !== lane.name) continue;
        inLane += 1;
        busy.set(r.group, (busy.get(r.group) ?? 0) + 1);
      }
      const free = asked.has(lane) ? lane.concurrency - inLane : 0;
      if (asked.has(lane) && free <= 0) this.backlog.add(lane.name);
      // A group already at its limit is left out of the claim: its due jobs, if any, are unseen.
      const groupFull = [...busy.values()].some((n) => n >= lane.perGroup);
      return { lane, busy, free, groupFull };
    });
    const more = new Set<Lane>();
    if (wanted.every((w) => w.free <= 0)) return { claimed: 0, more };
    // Every lane is in the statement (those not claiming with no slots), so its text never changes.
    const claims = await claimLanes(
      this.db,
      clock.now(),
      wanted.map(({ lane, busy, free }) => ({
        kinds: lane.kinds,
        notKinds: lane.kinds ? undefined : lanes.filter((l) => l !== lane).flatMap((l) => l.kinds ?? []),
        groupBy: lane.groupBy,
        perGroup: lane.perGroup,
        busy,
        limit: free,
      })),
      [...this.running.keys()],
      this.settings.leaseSeconds,
    );
    let claimed = 0;
    wanted.forEach(({ lane, free, groupFull }, i) => {
      if (free <= 0) return;
      const { jobs, more: full, left } = claims[i];
      if (full || left || groupFull || jobs.length >= free) this.backlog.add(lane.name);
      else this.backlog.delete(lane.name);
      if (full) more.add(lane);
      for (const job of jobs) this.start(lane, job);
      claimed += jobs.length;
    });
    return { claimed, more };
  }

  private start(lane: Lane, job: ClaimedJob): void {
    this.running.set(job.id, { lane: lane.name, group: job.group });
    const task = runOne(this.db, this.registry, job, this.settings, this.heartbeat, this.doneBatch)
      .catch((err) => logger().error({ err, jobId: job.id, kind: job.kind }, "job run failed to record its outcome"))
      .finally(() => {
        this.running.delete(job.id);
        this.tasks.delete(task);
        this.onFreed();
      });
    this.tasks.add(task);
  }

  /** Waits for every running job to end (each bounded by its kind's timeout). */
  async drain(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
  }
}
