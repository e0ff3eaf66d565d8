/**
 * Per-stage wall and CPU time of the verifications of a measuring run (quality.ts,
 * profile-job.ts), from lib/identity/kyc/verification/stage-timing.ts: each stage's times are
 * summed per verification (the MRZ read may run several OCR passes), then reported as the mean,
 * p50 and p95 over the verifications (0 where a verification did not reach the stage).
 */
import os from "node:os";
import { recordStages } from "@/lib/identity/kyc/verification/stage-timing";

type Times = { wall: number; cpu: number };

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : 0;
}

const ms = (v: number) => Math.round(v);

export function stageCollector() {
  let current = new Map<string, Times & { calls: number }>();
  const done: Array<Map<string, Times & { calls: number }>> = [];
  const verifications: Times[] = [];
  const load: number[] = [];
  let cpuAt = process.cpuUsage();
  let wallAt = performance.now();
  recordStages((stage, wall, cpu) => {
    const t = current.get(stage) ?? { wall: 0, cpu: 0, calls: 0 };
    current.set(stage, { wall: t.wall + wall, cpu: t.cpu + cpu, calls: t.calls + 1 });
  });
  return {
    /** Just before a verification: its stages and whole time start here. */
    start() {
      current = new Map();
      load.push(os.loadavg()[0]);
      cpuAt = process.cpuUsage();
      wallAt = performance.now();
    },
    /** Just after it. */
    end() {
      const cpu = process.cpuUsage(cpuAt);
      verifications.push({ wall: performance.now() - wallAt, cpu: (cpu.user + cpu.system) / 1000 });
      done.push(current);
    },
    summary() {
      const stages = [...new Set(done.flatMap((m) => [...m.keys()]))].sort();
      const of = (pick: (t: Times) => number, values: Times[]) => {
        const v = values.map(pick);
        return { mean: ms(v.reduce((a, b) => a + b, 0) / Math.max(1, v.length)), p50: ms(percentile(v, 0.5)), p95: ms(percentile(v, 0.95)) };
      };
      return {
        verifications: verifications.length,
        perVerification: {
          wallMs: { ...of((t) => t.wall, verifications), max: ms(Math.max(...verifications.map((t) => t.wall))) },
          cpuMs: { ...of((t) => t.cpu, verifications), max: ms(Math.max(...verifications.map((t) => t.cpu))) },
        },
        loadAverage1m: {
          min: Math.min(...load).toFixed(1),
          mean: (load.reduce((a, b) => a + b, 0) / Math.max(1, load.length)).toFixed(1),
          max: Math.max(...load).toFixed(1),
        },
        stages: Object.fromEntries(
          stages.map((stage) => {
            const times = done.map((m) => m.get(stage) ?? { wall: 0, cpu: 0, calls: 0 });
            return [stage, { calls: times.reduce((a, t) => a + t.calls, 0), cpuMs: of((t) => t.cpu, times), wallMs: of((t) => t.wall, times) }];
          }),
        ),
      };
    },
    stop() {
      recordStages(null);
    },
  };
}
