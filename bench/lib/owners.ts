/**
 * Who owns a CPU profile sample (bench/lib/cpu-profile.ts `Owner`), for a window where calls and
 * jobs interleave (the profiled journey): the job whose handler file (a `defineJob` in
 * lib/) is on the sample's stack, else the route whose app/**\/route.ts is, else the worker's own
 * code (lib/platform/jobs: claims, the run loop) or the request pipeline (lib/interface/http, lib/platform/http). A stack shows only what
 * runs synchronously: the continuation of an awaited query runs with the awaiting function on top
 * and none of its callers, and postgres.js reading a reply has no handler of ours on the stack at
 * all, so an owner's share is what ran under its own frames (a floor), and the rest stays unowned.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Feature, Located, Owner } from "./cpu-profile";

/** lib/ files that define jobs, each with the kinds it defines ("lib/compliance/fast-check/fast-check-job.ts" → "transfers.fastCheck"). */
export function jobFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (rel.endsWith(".ts")) {
        const text = readFileSync(path.join(root, rel), "utf8");
        if (!text.includes("defineJob(")) continue;
        const kinds = [...text.matchAll(/defineJob\(\{\s*kind:\s*"([^"]+)"/g)].map((m) => m[1]);
        if (kinds.length) files.set(rel, kinds.join(", "));
      }
    }
  };
  walk("lib");
  return files;
}

// Lower rank wins when a stack holds several: a job's handler over the worker that called it, a
// route's file over the pipeline that called it.
const fileOf = (where: string) => where.replace(/:\d+$/, "");

export function ownerOf(jobs: Map<string, string>): Owner {
  return (stack: Located[]) => {
    let best: { rank: number; name: string } | undefined;
    for (const frame of stack) {
      const file = fileOf(frame.where);
      const route = /^app\/(.+)\/route\.ts$/.exec(file)?.[1];
      const found = jobs.has(file)
        ? { rank: 0, name: `job ${jobs.get(file)}` }
        : route
          ? { rank: 1, name: `route /${route}` }
          : file.startsWith("lib/platform/jobs/")
            ? { rank: 2, name: "the worker (lib/platform/jobs)" }
            : file.startsWith("lib/interface/http/") || file.startsWith("lib/platform/http/")
              ? { rank: 3, name: "the request pipeline (lib/interface/http, lib/platform/http)" }
              : undefined;
      if (found && (!best || found.rank < best.rank)) best = found;
    }
    return best?.name;
  };
}

/**
 * The features whose cost issue 42 bounds (at most 5 % of a call's CPU): the configuration in force
 * that prices quotes and gates transfers (versioned corridors, prices and limits), and the routing
 * of payouts across providers (routes, attempts, prefunding cover), each by the files that are it.
 */
export const FEATURES: Feature[] = [
  { name: "configuration in force (lib/payments/corridors)", has: (file) => file.startsWith("lib/payments/corridors/") },
  {
    name: "payout routing (lib/payments/payouts: routing, attempts, prefunding)",
    has: (file) =>
      /^lib\/payments\/payouts\/(routed|routing|attempts|prefunding|without-route|payout-attempt-state-machine|provider-attempt-state-machine)\.ts$/.test(file),
  },
];
