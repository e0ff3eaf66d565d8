/**
 * Where a verification's time goes (scripts/kyc/quality.ts, docs/kyc-quality.md): each stage's
 * wall time and the process's CPU time over it (process.cpuUsage counts every thread, the OCR
 * worker's included). Off unless a script sets a recorder: the server pays nothing. On a machine
 * shared with other work the wall time is mostly waiting for a core; the CPU time is the work.
 */
export type StageRecorder = (stage: string, wallMs: number, cpuMs: number) => void;

let recorder: StageRecorder | null = null;

/** Sets (or, with null, removes) the recorder of every stage timed after it. */
export function recordStages(r: StageRecorder | null): void {
  recorder = r;
}

/** Runs one stage, timed when a recorder is set. */
export async function timed<T>(stage: string, run: () => PromiseLike<T>): Promise<T> {
  const r = recorder;
  if (!r) return run();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  try {
    return await run();
  } finally {
    const used = process.cpuUsage(cpu);
    r(stage, performance.now() - wall, (used.user + used.system) / 1000);
  }
}
