// Loaded into a benchmark's server process (NODE_OPTIONS=--import, bench/server.mjs `probe`): on
// SIGUSR2 it writes the process's memory (process.memoryUsage) and the event loop's delay since the
// last signal (perf_hooks monitorEventLoopDelay) to BENCH_PROBE_DIR/<pid>.json, then starts the
// delay's histogram afresh. The app's code knows nothing of it; its cost is a 10 ms timer.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const dir = process.env.BENCH_PROBE_DIR;
if (dir) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let seq = 0;
  // The histogram holds the intervals between the timer's runs (10 ms when the loop is free):
  // less the resolution, how long the loop was busy past its tick.
  const RESOLUTION_MS = 10;
  const late = (ns) => Math.max(0, Math.round(ns / 1e4) / 100 - RESOLUTION_MS);
  process.on("SIGUSR2", () => {
    const m = process.memoryUsage();
    const snapshot = {
      seq: ++seq,
      memory: { rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers },
      eventLoopDelay: { p50: late(delay.percentile(50)), p99: late(delay.percentile(99)), max: late(delay.max), samples: delay.count },
    };
    delay.reset();
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(snapshot));
  });
}
