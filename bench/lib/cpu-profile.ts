/**
 * Reads a V8 .cpuprofile (node --cpu-prof) for bench/profile.ts: shares of self and inclusive
 * (total) samples per function, and of self samples per category, over a time window of the
 * profile, so one server run profiles several routes in turn. Shares only: the CPU a
 * window used comes from /proc (bench/lib/proc-cpu.mjs), and a share of it is a share of the
 * window's busy samples.
 */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A function as a reader knows it: its name, source file:line, and what it belongs to. */
export interface Located {
  name: string;
  where: string;
  category: string;
}

export type Locate = (frame: CallFrame) => Located;

export interface Share {
  name: string;
  share: number;
}

export interface Summary {
  /** The window's length in the profile, ms of wall time (not CPU). */
  ms: number;
  /** Samples in the window. */
  samples: number;
  /** The share of them idle (the thread waiting in the event loop): no CPU. */
  idle: number;
  /** Shares of the busy (not idle) samples, each sample counted once: by category, self and inclusive per function. */
  categories: Share[];
  self: Share[];
  total: Share[];
  /**
   * With an Owner: the busy samples by what owns them (bench/lib/owners.ts: the job or route
   * whose handler is on its stack); a sample with no owner by its own category, "unowned: …".
   */
  owners?: Share[];
  /** With features: the busy samples with a frame of each feature's files on their stack (inclusive, each sample once per feature). */
  features?: Share[];
}

/** A part of the code measured apart (bench/lib/owners.ts `FEATURES`): its name and which of our files are it. */
export interface Feature {
  name: string;
  has: (file: string) => boolean;
}

/** What a sample's stack (leaf first) belongs to, if anything on it says so. */
export type Owner = (stack: Located[]) => string | undefined;

// V8's pseudo-frames: never on a reader's list of functions, each a category of its own ("(idle)"
// is no CPU: left out of the shares).
const SPECIAL = new Map([
  ["(garbage collector)", "GC"],
  ["(program)", "V8 (program)"],
]);
const NODE = "node (internals, native)";

/** Sample timestamps (µs, the profile's monotonic clock, which is process.hrtime's on Linux). */
function sampleTimes(prof: CpuProfile): number[] {
  const times: number[] = [];
  let t = prof.startTime;
  for (const d of prof.timeDeltas) times.push((t += d));
  return times;
}

export function summarize(
  prof: CpuProfile,
  locate: Locate,
  window: { from: number; to: number } = { from: -Infinity, to: Infinity },
  top = 12,
  owner?: Owner,
  features: Feature[] = [],
): Summary {
  const times = sampleTimes(prof);
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Each sample counts once. V8 samples the thread about once per interval while it runs or idles;
  // when a busy machine keeps it waiting for a core the gap to the next sample stretches, so
  // weighing a sample by that gap would charge the wait to whatever was on its stack.
  const count = new Map<number, number>();
  let samples = 0;
  let idleSamples = 0;
  let wallUs = 0;
  prof.samples.forEach((id, i) => {
    if (times[i] < window.from || times[i] > window.to) return;
    samples++;
    wallUs += prof.timeDeltas[i + 1] ?? prof.timeDeltas[i] ?? 0;
    if (byId.get(id)!.callFrame.functionName === "(idle)") idleSamples++;
    else count.set(id, (count.get(id) ?? 0) + 1);
  });
  const all = samples - idleSamples;
  const located = new Map<number, Located | null>();
  const locateNode = (id: number): Located | null => {
    if (!located.has(id)) {
      const f = byId.get(id)!.callFrame;
      located.set(id, f.functionName === "(root)" || SPECIAL.has(f.functionName) ? null : locate(f));
    }
    return located.get(id)!;
  };
  const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  const categories = new Map<string, number>();
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const owners = new Map<string, number>();
  const inFeature = new Map<string, number>(features.map((f) => [f.name, 0]));
  for (const [id, n] of count) {
    const special = SPECIAL.get(byId.get(id)!.callFrame.functionName);
    const here = locateNode(id);
    const category = special ?? here?.category ?? "other";
    add(categories, category, n);
    if (here) add(self, key(here), n);
    // Inclusive: once per distinct function on the stack (recursion counted once). Node's own
    // frames are left out: the event loop's (runMicrotasks, processTicksAndRejections) hold ~all.
    const seen = new Set<string>();
    const stack: Located[] = [];
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const at = locateNode(node);
      if (at) stack.push(at);
      if (at && at.category !== NODE) seen.add(key(at));
    }
    for (const k of seen) add(total, k, n);
    for (const f of features) if (stack.some((at) => f.has(at.where.replace(/:\d+$/, "")))) add(inFeature, f.name, n);
    if (owner) add(owners, (special ? undefined : owner(stack)) ?? (special === "GC" ? special : `unowned: ${category}`), n);
  }
  const ranked = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, n]) => ({ name, share: all ? n / all : 0 }));
  const summary: Summary = {
    ms: wallUs / 1000,
    samples,
    idle: samples ? idleSamples / samples : 0,
    categories: ranked(categories, 20),
    self: ranked(self, top),
    total: ranked(total, top),
  };
  if (owner) summary.owners = ranked(owners, Infinity);
  if (features.length) summary.features = [...inFeature].map(([name, n]) => ({ name, share: all ? n / all : 0 }));
  return summary;
}

const key = (l: Located) => `${l.name} (${l.where})`;

/** The category of a (mapped) source path: our code, a library, Node, or PGlite's WebAssembly. */
export function categoryOf(source: string): string {
  if (source.startsWith("wasm") || /^[0-9a-f]{8}$/.test(source)) return "PGlite (WebAssembly)";
  if (!source || source.startsWith("node:")) return NODE;
  const pkg = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  if (pkg) {
    if (pkg === "next" || pkg.startsWith("@next/")) return "next";
    if (pkg === "postgres") return "postgres.js";
    if (pkg === "@electric-sql/pglite") return "PGlite (JS)";
    if (pkg === "drizzle-orm" || pkg === "zod") return pkg;
    return `other packages (${pkg})`;
  }
  if (/^(lib|app|db)\//.test(source) || /^(proxy|instrumentation)\.ts$/.test(source)) return "our code (lib/, app/, db/)";
  if (source.includes(".next/server/")) return "app bundle (unmapped)";
  return "other";
}
