/**
 * CPU profile of the server per route (issues 13 and 26): first the bare app (bench/bare-app, its
 * own `node --cpu-prof` process) under wrk, then one `node --cpu-prof` server of ours, loaded in
 * turn by GET /v1/core/transfers/{id} (wrk, c=50) and each write (a closed loop of 50 callers over
 * prepared inputs, bench/lib/writes.ts). The samples are split by the time window of
 * each load (the profile's clock is process.hrtime's), mapped to source file:line through the
 * build's source maps, and summed per function (self and inclusive time) and per category.
 *   BENCH_DRIVER=pglite|postgres, BENCH_SECONDS (10), BENCH_WRITES (300; 0: the read only). Prints JSON on stdout.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error: plain ESM helpers
import { adminUrl, startServer } from "./server.mjs";
// @ts-expect-error: plain ESM helpers
import { startBareApp } from "./lib/bare-app.mjs";
// @ts-expect-error: plain ESM helpers
import { wrk } from "./lib/wrk.mjs";
import { summarize, type CpuProfile, type Summary } from "./lib/cpu-profile";
import { caller, KEY, onboardCustomers, pooled, quoteBody } from "./lib/partner";
import { sourceMapLocator } from "./lib/source-maps";
import { runWrites } from "./lib/writes";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WRITES = Number(process.env.BENCH_WRITES ?? 300);
const C = 50;
const root = path.resolve(import.meta.dirname, "..");

interface Window {
  route: string;
  from: number;
  to: number;
  requests: number;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** The largest .cpuprofile in dir (the cluster primary writes a small one too). */
function biggestProfile(dir: string): CpuProfile {
  const [biggest] = readdirSync(dir)
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  return JSON.parse(readFileSync(biggest, "utf8")) as CpuProfile;
}

/** The bare app's profile under wrk: the first row, what Next itself costs per request. */
async function profileBareApp() {
  const dir = mkdtempSync(path.join(tmpdir(), "remit-prof-bare-"));
  try {
    const bare = await startBareApp(adminUrl(), { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
    let window: Window;
    try {
      // The warm-up outside the window: a window's samples are then those of its counted requests.
      await wrk(bare.readUrl, { seconds: 2, warmup: 0 });
      const from = nowUs();
      const r = await wrk(bare.readUrl, { seconds: SECONDS, warmup: 0 });
      window = { route: "bare app: GET /v1/db/read", from, to: nowUs(), requests: r.requests as number };
    } finally {
      await bare.stop();
    }
    return { route: window.route, requests: window.requests, summary: summarize(biggestProfile(dir), sourceMapLocator(root), window, 10) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function profileRoutes(driver: "postgres" | "pglite" = "postgres") {
  const bareRow = await profileBareApp();
  const dir = mkdtempSync(path.join(tmpdir(), "remit-prof-"));
  const server = await startServer({ FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0" }, { driver, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
  const windows: Window[] = [];
  const timed = async <T>(route: string, requests: (out: T) => number, load: () => Promise<T>) => {
    const from = nowUs();
    const out = await load();
    windows.push({ route, from, to: nowUs(), requests: requests(out) });
    return out;
  };
  let stopped = false;
  try {
    const customers = await onboardCustomers(server.baseUrl, 20);
    const me = customers[0];
    const call = caller(server.baseUrl);
    const quote = await call("POST", "/v1/core/quotes", me.token, quoteBody(me));
    const d = await call("GET", `/v1/core/quotes/${quote.quoteId}/disclosure`, me.token);
    const t = await call(
      "POST",
      `/v1/core/quotes/${quote.quoteId}/accept`,
      me.token,
      { disclosureToken: d.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
      201,
    );
    const auth = { "ocp-apim-subscription-key": KEY, authorization: `Bearer ${me.token}` };
    type Load = { requests: number };
    const detail = `${server.baseUrl}/v1/core/transfers/${t.transferId}`;
    await wrk(detail, { headers: auth, seconds: 2, warmup: 0 });
    await timed(
      "GET /v1/core/transfers/{id} (registered)",
      (r: Load) => r.requests,
      () => wrk(detail, { headers: auth, seconds: SECONDS, warmup: 0 }),
    );
    if (WRITES > 0)
      await runWrites(server.baseUrl, customers, WRITES, (route, items, work) =>
        timed(
          route,
          () => items.length,
          async () => {
            const out = await pooled(items, C, (item) => work(item).catch(() => undefined));
            return out.filter((x) => x !== undefined) as Awaited<ReturnType<typeof work>>[];
          },
        ),
      );
    await server.stop();
    stopped = true;
    const prof = biggestProfile(dir);
    const locate = sourceMapLocator(root);
    const routes: { route: string; requests: number; summary: Summary }[] = [bareRow];
    routes.push(
      ...windows.map((w) => ({
        route: w.route,
        requests: w.requests,
        summary: summarize(prof, locate, w, 10),
      })),
    );
    return { database: server.database, seconds: SECONDS, writes: WRITES, at: new Date().toISOString(), load: loadavg()[0], routes };
  } finally {
    if (!stopped) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  profileRoutes((process.env.BENCH_DRIVER as "postgres" | "pglite") ?? "postgres").then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
