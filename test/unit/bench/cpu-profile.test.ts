/**
 * bench/lib/cpu-profile.ts and source-maps.ts (the per-route profile): shares of the busy
 * samples per function (self and inclusive) over a window of the profile, categories, and frames
 * of a bundled chunk mapped back to source file:line; bench/lib/proc-cpu.mjs: the CPU a window
 * used, from /proc, which those shares divide.
 */
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { categoryOf, summarize, type CallFrame, type CpuProfile, type Located } from "../../../bench/lib/cpu-profile";
import { jobFiles, ownerOf } from "../../../bench/lib/owners";
import { sourceMapLocator, sourcePath } from "../../../bench/lib/source-maps";
// @ts-expect-error: plain ESM helpers
import { cpuBetween, processCpu, statSeconds } from "../../../bench/lib/proc-cpu.mjs";

const frame = (functionName: string, url: string): CallFrame => ({ functionName, url, lineNumber: 0, columnNumber: 0 });

// (root) -> handler (lib) -> query (drizzle) -> query (recursion); handler -> write (node); (idle); (garbage collector)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", ""), children: [2, 6, 7] },
    { id: 2, callFrame: frame("handler", "/app/lib/h.ts"), children: [3, 5] },
    { id: 3, callFrame: frame("query", "/app/node_modules/drizzle-orm/q.js"), children: [4] },
    { id: 4, callFrame: frame("query", "/app/node_modules/drizzle-orm/q.js") },
    { id: 5, callFrame: frame("write", "node:net") },
    { id: 6, callFrame: frame("(idle)", "") },
    { id: 7, callFrame: frame("(garbage collector)", "") },
  ],
  startTime: 1000,
  endTime: 2000,
  // One sample every 100 µs: handler, query, query (recursive), write, idle, gc, and one outside the window.
  samples: [2, 3, 4, 5, 6, 7, 2],
  timeDeltas: [100, 100, 100, 100, 100, 100, 100],
};

const locate = (f: CallFrame) => {
  const where = f.url.replace("/app/", "");
  return { name: f.functionName, where, category: categoryOf(where) };
};

describe("cpu profile summary", () => {
  const s = summarize(profile, locate, { from: 1100, to: 1600 });
  const share = (list: { name: string; share: number }[], name: string) => list.find((x) => x.name === name)?.share;

  it("counts only the samples in the window, and the idle ones apart", () => {
    assert.equal(s.ms, 0.6);
    assert.equal(s.samples, 6);
    assert.equal(s.idle, 1 / 6);
  });

  it("splits the busy samples by category, GC as its own; idle is no CPU and no category", () => {
    assert.equal(share(s.categories, "drizzle-orm"), 2 / 5);
    assert.equal(share(s.categories, "our code (lib/, app/, db/)"), 1 / 5);
    assert.equal(share(s.categories, "node (internals, native)"), 1 / 5);
    assert.equal(share(s.categories, "GC"), 1 / 5);
    assert.equal(share(s.categories, "idle"), undefined);
  });

  it("counts self samples per function and inclusive ones once per stack, without Node's frames", () => {
    assert.equal(share(s.self, "query (node_modules/drizzle-orm/q.js)"), 2 / 5);
    assert.equal(share(s.self, "handler (lib/h.ts)"), 1 / 5);
    assert.equal(share(s.total, "handler (lib/h.ts)"), 4 / 5);
    assert.equal(share(s.total, "query (node_modules/drizzle-orm/q.js)"), 2 / 5);
    assert.equal(share(s.total, "write (node:net)"), undefined);
  });

  it("counts each sample once: a gap stretched by a wait for a core weighs nothing more", () => {
    // The first query sample is followed by a 10 ms gap (the thread waiting for a core), the others by 100 µs.
    const stretched = { ...profile, timeDeltas: [100, 100, 10_000, 100, 100, 100, 100] };
    const t = summarize(stretched, locate);
    assert.equal(share(t.categories, "our code (lib/, app/, db/)"), 2 / 6);
    assert.equal(share(t.categories, "drizzle-orm"), 2 / 6);
  });
});

describe("CPU from /proc", () => {
  // utime 250 + stime 50 ticks for the process (all threads), 200 + 40 for its main thread; the
  // command holds a space and a parenthesis, as Next's process title can.
  const stat = (utime: number, stime: number) => `4242 (next-server (v16)) S 1 4242 4242 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 11 0 100 0`;
  const fakeProc = (files: Record<string, string>) => (file: string) => {
    if (!(file in files)) throw new Error(`ENOENT ${file}`);
    return files[file];
  };

  it("reads a process's threads together and its main thread from a stat line's utime and stime", () => {
    assert.equal(statSeconds(stat(250, 50)), 3);
    const read = fakeProc({ "/proc/4242/stat": stat(250, 50), "/proc/4242/task/4242/stat": stat(200, 40) });
    assert.deepEqual(processCpu(4242, read), { all: 3, main: 2.4 });
    assert.equal(processCpu(4243, read), null);
  });

  it("a window's CPU is the difference of two readings, ms: all threads, the main one, the others", () => {
    const before = processCpu(4242, fakeProc({ "/proc/4242/stat": stat(250, 50), "/proc/4242/task/4242/stat": stat(200, 40) }));
    const after = processCpu(4242, fakeProc({ "/proc/4242/stat": stat(400, 70), "/proc/4242/task/4242/stat": stat(310, 60) }));
    const used = cpuBetween(before, after);
    assert.deepEqual(Object.fromEntries(Object.entries(used).map(([k, v]) => [k, Math.round(v as number)])), { all: 1700, main: 1300, otherThreads: 400 });
    assert.equal(cpuBetween(before, null), null);
  });

  it("reads this process's own /proc", () => {
    const cpu = processCpu(process.pid);
    assert.ok(cpu && cpu.all >= cpu.main && cpu.main > 0);
  });
});

describe("source-mapped frames", () => {
  it("names sources from the project root, Turbopack's virtual ones and Drizzle's too", () => {
    const root = "/app";
    assert.equal(sourcePath("../../../lib/interface/http/endpoint.ts", "/app/.next/server/chunks", root), "lib/interface/http/endpoint.ts");
    assert.equal(sourcePath("../../../node_modules/%40scope/pkg/x.js", "/app/.next/server/chunks", root), "node_modules/@scope/pkg/x.js");
    assert.equal(sourcePath("../../../data/v1.json.%5Bjson%5D.cjs/turbopack%3A///data/v1.json", "/app/.next/server/chunks", root), "data/v1.json");
    assert.equal(sourcePath("../../../node_modules/src/sql/sql.ts", "/app/.next/server/chunks", root), "node_modules/drizzle-orm/src/sql/sql.ts");
  });

  it("maps a chunk's frame to its source line and original name through the chunk's map file", () => {
    const root = mkdtempSync(path.join(tmpdir(), "remit-map-"));
    const chunks = path.join(root, ".next/server/chunks");
    mkdirSync(chunks, { recursive: true });
    writeFileSync(path.join(chunks, "a.js"), "function c(){}\n//# sourceMappingURL=a.js.map\n");
    // Generated line 0, column 9 -> source 0 (lib/x.ts), line 4, column 0, name 0 ("readTransfer").
    writeFileSync(path.join(chunks, "a.js.map"), JSON.stringify({ version: 3, sources: ["../../../lib/x.ts"], names: ["readTransfer"], mappings: "SAIAA" }));
    const locate = sourceMapLocator(root);
    const mapped = locate({ functionName: "c", url: `file://${chunks}/a.js`, lineNumber: 0, columnNumber: 9 });
    assert.deepEqual(mapped, { name: "readTransfer", where: "lib/x.ts:5", category: "our code (lib/, app/, db/)" });
    assert.deepEqual(locate(frame("writev", "node:net")), { name: "writev", where: "node:net", category: "node (internals, native)" });
  });
});

describe("categories", () => {
  it("names the packages the brief asks for", () => {
    assert.equal(categoryOf("node_modules/next/dist/server/base-server.js"), "next");
    assert.equal(categoryOf("node_modules/postgres/src/connection.js"), "postgres.js");
    assert.equal(categoryOf("node_modules/zod/v4/core/parse.js"), "zod");
    assert.equal(categoryOf("app/v1/core/transfers/route.ts"), "our code (lib/, app/, db/)");
    assert.equal(categoryOf(".next/server/chunks/x.js"), "app bundle (unmapped)");
    assert.equal(categoryOf("wasm://wasm/0123abcd"), "PGlite (WebAssembly)");
  });
});

describe("owners of the samples", () => {
  const root = path.resolve(import.meta.dirname, "../../..");
  const jobs = jobFiles(root);
  const owner = ownerOf(jobs);
  const at = (name: string, where: string): Located => ({ name, where, category: categoryOf(where) });

  it("finds each job kind's file by its defineJob", () => {
    assert.equal(jobs.get("lib/compliance/fast-check/fast-check-job.ts"), "transfers.fastCheck");
    assert.equal(jobs.get("lib/partners/webhooks/deliver-job.ts"), "webhooks.deliver");
    assert.equal(jobs.get("lib/payments/payouts/jobs.ts"), "payouts.generateFiles, payouts.writeFile");
  });

  it("a job's handler over the worker that runs it and the queue it calls; a route over the pipeline; else none", () => {
    const claim = at("claim", "lib/platform/jobs/claim.ts:10");
    const handler = at("run", "lib/compliance/fast-check/fast-check-job.ts:27");
    // Leaf first: the job enqueues (lib/platform/jobs) from its handler, which the run loop (lib/platform/jobs) called.
    assert.equal(owner([at("enqueue", "lib/platform/jobs/queue.ts:5"), handler, at("runOne", "lib/platform/jobs/run-loop.ts:40")]), "job transfers.fastCheck");
    assert.equal(owner([claim, at("tick", "lib/platform/jobs/run-loop.ts:20")]), "the worker (lib/platform/jobs)");
    assert.equal(
      owner([
        at("select", "node_modules/drizzle-orm/x.js:1"),
        at("handler", "app/v1/core/quotes/route.ts:12"),
        at("endpoint", "lib/interface/http/endpoint.ts:80"),
      ]),
      "route /v1/core/quotes",
    );
    assert.equal(
      owner([at("authenticate", "lib/platform/http/auth.ts:3"), at("endpoint", "lib/interface/http/endpoint.ts:80")]),
      "the request pipeline (lib/interface/http, lib/platform/http)",
    );
    assert.equal(owner([at("endpoint", "lib/interface/http/endpoint.ts:80")]), "the request pipeline (lib/interface/http, lib/platform/http)");
    assert.equal(owner([at("parse", "node_modules/postgres/src/connection.js:400")]), undefined);
  });

  it("summarize splits a window's busy samples by owner, an unowned sample by its category, GC as its own", () => {
    const s = summarize(profile, locate, { from: 1100, to: 1600 }, 12, (stack) => (stack.some((l) => l.where === "lib/h.ts") ? "handler's" : undefined));
    const share = (name: string) => s.owners?.find((x) => x.name === name)?.share;
    // handler, query, query, write are under the handler; GC is not; idle is no one's.
    assert.equal(share("handler's"), 4 / 5);
    assert.equal(share("GC"), 1 / 5);
    assert.equal(share("idle"), undefined);
    const byQuery = summarize(profile, locate, { from: 1100, to: 1600 }, 12, (stack) => (stack[0].category === "drizzle-orm" ? "query's" : undefined));
    assert.deepEqual(
      byQuery.owners?.map((o) => [o.name, Math.round(o.share * 5)]),
      [
        ["query's", 2],
        ["unowned: our code (lib/, app/, db/)", 1],
        ["unowned: node (internals, native)", 1],
        ["GC", 1],
      ],
    );
    assert.equal(summarize(profile, locate).owners, undefined);
  });
});
