/**
 * Journey benchmark: open-loop arrivals at a fixed rate (BENCH_RATE journeys/s
 * for BENCH_SECONDS), each journey on one of a pool of onboarded customers: quote → disclosure →
 * accept → submit → poll to validated → confirm → funding complete → poll to funded, polling at
 * the spec's cadence (section 8: 1 s, 2 s, 4 s, 8 s after submit). Fast-check and screening delays
 * are 0. Reports journeys/s, per-call p50/p99, the job latency (submit → validated, funding call →
 * funded, from the server's state history), server CPU and RSS (after the load, its parts: V8's heap,
 * external memory, /proc's anonymous and file-backed pages), the event loop's delay over the load
 * (bench/lib/probe.mjs in the server), plus the bare app (bench/bare-app)
 * measured in the same run. Every journey call goes through the typed client (packages/client), as a
 * partner's would.
 *   BENCH_DRIVER=postgres|pglite, BENCH_RATE, BENCH_SECONDS, BENCH_INSTANCES (2: two `next start`
 *   behind one port, PostgreSQL), BENCH_WORKER=process (the job worker as its own process, PostgreSQL)
 * A before/after of a lever (bench/notes.md): build the old commit in a checkout of its own, then run
 * this file with BENCH_APP_DIR=<that checkout> and without, in turns; the web process and the worker
 * process then both run that checkout's build and code (bench/server.mjs).
 * Prints JSON on stdout (bench/run.mjs renders it).
 */
// @ts-expect-error: plain ESM helpers
import { sampleWaits } from "./lib/pg-waits.mjs";
// @ts-expect-error: plain ESM helpers
import { adminUrl, machineCpu, startServer } from "./server.mjs";
// @ts-expect-error: plain ESM helpers
import { startBareApp } from "./lib/bare-app.mjs";
// @ts-expect-error: plain ESM helpers
import { wrk } from "./lib/wrk.mjs";
// @ts-expect-error: plain ESM helpers
import { pct } from "./lib/stats.mjs";
// @ts-expect-error: plain ESM helpers
import { cpuBetween } from "./lib/proc-cpu.mjs";
import { createRemitClient, deviceAssertion, type RemitClient } from "@remit-core/client";
import { KEY, onboardCustomers, quoteBody, submitBody, type Customer } from "./lib/partner";

const driver = (process.env.BENCH_DRIVER as "postgres" | "pglite") ?? "postgres";
const RATE = Number(process.env.BENCH_RATE ?? (driver === "pglite" ? 8 : 25));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 30);
const SEPARATE_WORKER = process.env.BENCH_WORKER === "process";
const CADENCE = [1000, 2000, 4000, 8000];

/** What one load of journeys did (runJourneys): its calls' latencies, the job latencies, its times. */
export interface JourneyLoad {
  total: number;
  completed: number;
  arrivals: number;
  elapsed: number;
  calls: { name: string; count: number; errors: number; p50: number; p99: number }[];
  toValidated: number[];
  toFunded: number[];
}

/**
 * Open-loop arrivals at `rate` journeys/s for `seconds` on a running server, each journey on one of
 * `customers` in turn; answers when every journey has ended. bench/profile.ts runs the same load in
 * a profiled window.
 */
export async function runJourneys(baseUrl: string, customers: Customer[], rate: number, seconds: number): Promise<JourneyLoad> {
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  /** One typed-client call, timed; an answer other than `expect` fails the journey. */
  const timed = async <T>(name: string, run: () => Promise<{ data?: T; error?: unknown; response: Response }>, expect = 200): Promise<T> => {
    const t = performance.now();
    try {
      const { data, error, response } = await run();
      if (response.status !== expect) throw new Error(`${name}: ${response.status} ${JSON.stringify(error ?? data)}`);
      return data as T;
    } catch (err) {
      errors.set(name, (errors.get(name) ?? 0) + 1);
      throw err;
    } finally {
      if (!latencies.has(name)) latencies.set(name, []);
      latencies.get(name)!.push(performance.now() - t);
    }
  };
  const toValidated: number[] = [];
  const toFunded: number[] = [];
  const clients = new Map<Customer, RemitClient>(customers.map((c) => [c, createRemitClient({ baseUrl, subscriptionKey: KEY, accessToken: c.token })]));
  const waitFor = async (api: RemitClient, transferId: string, state: string) => {
    for (let i = 0; ; i++) {
      await new Promise((r) => setTimeout(r, CADENCE[Math.min(i, CADENCE.length - 1)]));
      const t = await timed("GET transfer (poll)", () => api.GET("/v1/core/transfers/{transferId}", { params: { path: { transferId } } }));
      if (t.transferStatus === state) return t;
      if (i > 8 || ["rejected", "expired", "onreview", "cancelled"].includes(t.transferStatus)) throw new Error(`transfer ${t.transferStatus}`);
    }
  };
  const at = (t: { stateHistory: { state: string; transitionedAt: string }[] }, state: string) =>
    Date.parse(t.stateHistory.find((h) => h.state === state)?.transitionedAt ?? "");
  const journey = async (c: Customer) => {
    const api = clients.get(c)!;
    const quote = await timed("POST quotes", () => api.POST("/v1/core/quotes", { body: quoteBody(c) }));
    const quoteId = { params: { path: { quoteId: quote.quoteId } } };
    const disclosure = await timed("GET disclosure", () => api.GET("/v1/core/quotes/{quoteId}/disclosure", quoteId));
    const accepted = await timed(
      "POST accept",
      () =>
        api.POST("/v1/core/quotes/{quoteId}/accept", {
          ...quoteId,
          body: { disclosureToken: disclosure.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
        }),
      201,
    );
    const transferId = { params: { path: { transferId: accepted.transferId } } };
    await timed("POST submit", () => api.POST("/v1/core/transfers/{transferId}/submit", { ...transferId, body: submitBody(c) }), 202);
    const validated = await waitFor(api, accepted.transferId, "validated");
    toValidated.push(at(validated, "validated") - Date.parse(validated.submittedAt ?? ""));
    const assertion = await deviceAssertion(validated, c.device);
    const confirmed = await timed("POST confirm", () =>
      api.POST("/v1/core/transfers/{transferId}/confirm", { ...transferId, body: { deviceAssertion: assertion } }),
    );
    const sent = Date.now();
    await timed("POST funding complete (sandbox)", () =>
      api.POST("/v1/sandbox/funding-sessions/{fundingSessionId}/complete", {
        params: { path: { fundingSessionId: confirmed.fundingSession!.fundingSessionId } },
        body: { outcome: "SUCCEEDED" },
      }),
    );
    const funded = await waitFor(api, accepted.transferId, "funded");
    toFunded.push(at(funded, "funded") - sent);
  };

  const started = performance.now();
  const running: Promise<boolean>[] = [];
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    running.push(
      journey(customers[i % customers.length]).then(
        () => true,
        () => false,
      ),
    );
  }
  const arrivals = (performance.now() - started) / 1000;
  const results = await Promise.all(running);
  return {
    total,
    completed: results.filter(Boolean).length,
    arrivals,
    elapsed: (performance.now() - started) / 1000,
    calls: [...latencies.entries()].map(([name, v]) => ({ name, count: v.length, errors: errors.get(name) ?? 0, p50: pct(v, 50), p99: pct(v, 99) })),
    toValidated,
    toFunded,
  };
}

export async function benchJourney() {
  const server = await startServer(
    { FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0" },
    { driver, instances: INSTANCES, separateWorker: SEPARATE_WORKER, probe: INSTANCES === 1 },
  );
  try {
    const customers = await onboardCustomers(server.baseUrl, CUSTOMERS);
    // The bare app's read in the same run, then stopped: it must not share the load's CPU.
    const bare = await startBareApp(adminUrl());
    const anchor = await wrk(bare.readUrl, { connections: 50, seconds: 5, warmup: 2 }).finally(() => bare.stop());
    const rssBefore = server.rss();

    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rss() ?? 0)), 1000);
    // The event loop's delay counted from here (bench/lib/probe.mjs starts afresh at each call).
    await server.probe();
    const cpuBefore = server.cpu();
    const splitBefore = server.cpuSplit();
    const machineBefore = machineCpu();
    // PostgreSQL's sessions over the load: what a call waits on beyond its CPU.
    const waits = server.databaseUrl ? sampleWaits(server.databaseUrl) : null;
    const load = await runJourneys(server.baseUrl, customers, RATE, SECONDS);
    const databaseWaits = (await waits?.stop()) ?? null;
    const serverCpu = server.cpu() - cpuBefore;
    const splitAfter = server.cpuSplit();
    const machine = machineCpu();
    const duringLoad = await server.probe();
    clearInterval(sampler);
    // Memory after the load, once the process has settled.
    await new Promise((r) => setTimeout(r, 2000));
    const { completed, elapsed } = load;
    const settled = await server.probe();
    return {
      database: server.database,
      instances: INSTANCES,
      worker: SEPARATE_WORKER ? "process" : "in-process",
      rate: RATE,
      seconds: SECONDS,
      customers: CUSTOMERS,
      completed,
      failed: load.total - completed,
      arrivals: load.arrivals,
      elapsed,
      // Completed over the arrivals; bench/lib/report.mjs judges the rate the server kept up with (sustained()).
      journeysPerSecond: completed / load.arrivals,
      anchor,
      calls: load.calls,
      jobLatency: {
        submitToValidated: { p50: pct(load.toValidated, 50), p99: pct(load.toValidated, 99), n: load.toValidated.length },
        fundingToFunded: { p50: pct(load.toFunded, 50), p99: pct(load.toFunded, 99), n: load.toFunded.length },
      },
      rss: { before: rssBefore, peak: peakRss, after: server.rss(), worker: server.workerRss() },
      // What the RSS after is made of (the web process): V8's heap, the memory V8 knows of outside
      // it (ArrayBuffers among it), and, by /proc, anonymous against file-backed pages.
      memory: settled ? { ...settled.memory, resident: server.resident() } : null,
      // The server's event loop over the load: how late its 10 ms timer ran (bench/lib/probe.mjs).
      eventLoopDelay: duringLoad?.eventLoopDelay ?? null,
      // PostgreSQL's sessions over the load, sampled (bench/lib/pg-waits.mjs): each state's share.
      databaseWaits,
      // Where the time went: the server's CPU (all its processes) per journey and as a share of
      // one core over the load, and the whole machine's busy share (client and database included).
      cpu: {
        serverSeconds: serverCpu,
        serverMsPerJourney: (serverCpu * 1000) / Math.max(1, completed),
        serverCores: serverCpu / elapsed,
        machineBusy: (machine.busy - machineBefore.busy) / (machine.total - machineBefore.total),
        // The web process's and the worker process's (BENCH_WORKER=process) CPU over the load, ms:
        // all threads and the main thread, which runs the JavaScript (bench/lib/proc-cpu.mjs).
        web: cpuBetween(splitBefore.web, splitAfter.web),
        worker: cpuBetween(splitBefore.worker, splitAfter.worker),
      },
    };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  benchJourney().then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
