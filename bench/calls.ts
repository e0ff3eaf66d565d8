/**
 * Per-call benchmark (issue 13): the bare anchor, then each read with wrk and each write with a
 * closed-loop driver, all at the same concurrency (default c=50) against one server, so every
 * route is compared with the anchor measured in the same run. It also counts the statements each
 * request runs (DB_COUNT_STATEMENTS on the server; 100 sequential calls outside the load).
 * Reads are driven by wrk, writes by a Node closed loop (each write consumes prepared state); the
 * Node driver shares the CPU with the server, so each kind is compared with the anchor measured by
 * its own driver, and the bare write (one transaction, one INSERT) shows the floor of any write.
 *   BENCH_DRIVER=pglite|postgres, BENCH_SECONDS (10), BENCH_WARMUP (4), BENCH_CONNECTIONS (50)
 * Prints JSON on stdout (bench/run.mjs renders it).
 */
// @ts-expect-error: plain ESM helpers
import { startServer } from "./server.mjs";
// @ts-expect-error: plain ESM helpers
import { wrk } from "./lib/wrk.mjs";
// @ts-expect-error: plain ESM helpers
import { pct } from "./lib/stats.mjs";
import { caller, KEY, onboardCustomers, pooled, quoteBody, type Customer } from "./lib/partner";
import { runWrites } from "./lib/writes";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 4);
const C = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WRITES = Number(process.env.BENCH_WRITES ?? 400);

interface Row {
  route: string;
  kind: "anchor" | "read" | "write" | "floor";
  /** The load generator: a row's ratio is to the anchor measured by the same one. */
  driver: "wrk" | "node";
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statementsPerRequest: number;
}

/**
 * A closed loop of C callers over a fixed list of prepared inputs. Throughput and latencies are
 * taken over the steady middle (the calls ending between the 10th and 90th percentile of end
 * times), so neither the ramp-up (cold code paths) nor the tail (fewer than C in flight) counts.
 */
async function closedLoop<I, O>(items: I[], work: (item: I) => Promise<O>) {
  const calls: { end: number; ms: number }[] = [];
  let errors = 0;
  const out = await pooled(items, C, async (item) => {
    const t = performance.now();
    try {
      return await work(item);
    } catch {
      errors++;
      return undefined;
    } finally {
      const end = performance.now();
      calls.push({ end, ms: end - t });
    }
  });
  calls.sort((a, b) => a.end - b.end);
  const from = Math.floor(calls.length * 0.1);
  const to = Math.max(from + 1, Math.floor(calls.length * 0.9));
  const steady = calls.slice(from + 1, to + 1);
  const seconds = (calls[to].end - calls[from].end) / 1000;
  const times = steady.map((c) => c.ms);
  return { out, rps: steady.length / seconds, p50: pct(times, 50), p99: pct(times, 99), errors };
}

export async function benchCalls(driver: "postgres" | "pglite") {
  // Statements counted per process (db/index.ts); the worker only wakes on commits, so its polls
  // do not blur the count.
  const server = await startServer({ FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0", DB_COUNT_STATEMENTS: "1", WORKER_POLL_MS: "60000" }, { driver });
  const statements = async (): Promise<number> => (await (await fetch(`${server.baseUrl}/v1/sandbox/bench-anchor`)).json()).statements;
  const call = caller(server.baseUrl);
  const rows: Row[] = [];
  try {
    const customers = await onboardCustomers(server.baseUrl, 20);
    const me = customers[0];
    const quote = await call("POST", "/v1/core/quotes", me.token, quoteBody(me));
    const disclosure = await call("GET", `/v1/core/quotes/${quote.quoteId}/disclosure`, me.token);
    const accepted = await call(
      "POST",
      `/v1/core/quotes/${quote.quoteId}/accept`,
      me.token,
      { disclosureToken: disclosure.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
      201,
    );
    const auth = { "ocp-apim-subscription-key": KEY, authorization: `Bearer ${me.token}` };
    const reads: [string, string, Record<string, string>][] = [
      ["bare anchor (route handler, one PK select)", "/v1/sandbox/bench-anchor", {}],
      ["GET /v1/auth/health", "/v1/auth/health", { "ocp-apim-subscription-key": KEY }],
      ["GET /v1/core/transfers/{id} (registered)", `/v1/core/transfers/${accepted.transferId}`, auth],
      ["GET /v1/core/transfers", "/v1/core/transfers", auth],
      ["GET /v1/core/beneficiaries/{id}", `/v1/core/beneficiaries/${me.beneficiaryId}`, auth],
      ["GET /v1/core/profile", "/v1/core/profile", auth],
      ["GET /v1/core/quotes/{id}", `/v1/core/quotes/${quote.quoteId}`, auth],
    ];
    for (const [route, path, headers] of reads) {
      const r = await wrk(`${server.baseUrl}${path}`, { headers, connections: C, seconds: SECONDS, warmup: WARMUP });
      // Statements per request: 100 sequential calls outside the load (the second count's own select is 1).
      const before = await statements();
      for (let i = 0; i < 100; i++) await fetch(`${server.baseUrl}${path}`, { headers }).then((res) => res.arrayBuffer());
      const after = await statements();
      rows.push({
        route,
        kind: route.startsWith("bare") ? "anchor" : "read",
        driver: "wrk",
        ...r,
        errors: r.non2xx,
        statementsPerRequest: (after - before - 1) / 100,
      });
    }

    // Writes: each over its own prepared inputs (bench/lib/writes.ts).
    const n = WRITES;
    const measure = async <I, O>(route: string, items: I[], work: (item: I) => Promise<O>, kind: Row["kind"] = "write") => {
      const before = await statements();
      const r = await closedLoop(items, work);
      const after = await statements();
      // Includes the jobs these writes cause when they run meanwhile (submit's fast-check).
      rows.push({
        route,
        kind,
        driver: "node",
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        errors: r.errors,
        statementsPerRequest: (after - before - 1) / items.length,
      });
      return r.out.filter((x): x is Awaited<O> => x !== undefined);
    };
    // The anchors of the writes' driver: the same bare select, and the bare write.
    const anchorCall = (method: string) => () =>
      fetch(`${server.baseUrl}/v1/sandbox/bench-anchor`, { method }).then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`bench-anchor ${res.status}`);
      });
    await closedLoop(Array.from({ length: 500 }), anchorCall("GET")); // warm-up
    await measure("bare anchor, Node closed loop (the writes' driver)", Array.from({ length: 4 * n }), anchorCall("GET"), "anchor");
    await measure("bare write (route handler, one INSERT in a transaction)", Array.from({ length: 2 * n }), anchorCall("POST"), "floor");
    await runWrites(server.baseUrl, customers, WRITES, measure);
    return { database: server.database, connections: C, seconds: SECONDS, rows, rss: server.rss() };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchCalls((process.env.BENCH_DRIVER as "postgres" | "pglite") ?? "postgres").then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
export type { Customer };
