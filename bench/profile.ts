/**
 * CPU profile of the server under one read load (issue 13): `node --cpu-prof` on the app process,
 * wrk at c=50 on GET /v1/core/transfers/{id} for BENCH_SECONDS, then the top frames by self time,
 * grouped by package (or our file). Prints JSON on stdout.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error: plain ESM helpers
import { startServer } from "./server.mjs";
// @ts-expect-error: plain ESM helpers
import { wrk } from "./lib/wrk.mjs";
import { caller, KEY, onboardCustomers, quoteBody } from "./lib/partner";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

function where(url: string, name: string): string {
  if (name.startsWith("wasm-function") || url.startsWith("wasm:") || /^[0-9a-f]{8}$/.test(url)) return "PGlite (WebAssembly PostgreSQL)";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  // Next bundles our code with what it imports (Drizzle, zod, postgres.js) into .next/server.
  if (url.includes("/.next/server/")) return "app bundle (.next/server: lib/, app/, Drizzle, zod, postgres.js)";
  if (url.startsWith("node:") || !url) return "node internals / native";
  return path.basename(url);
}

export async function profileRead(driver: "postgres" | "pglite" = "postgres", seconds = Number(process.env.BENCH_SECONDS ?? 10)) {
  const dir = mkdtempSync(path.join(tmpdir(), "remit-prof-"));
  const server = await startServer({}, { driver, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
  let stopped = false;
  try {
    const [me] = await onboardCustomers(server.baseUrl, 1);
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
    const load = await wrk(`${server.baseUrl}/v1/core/transfers/${t.transferId}`, {
      headers: { "ocp-apim-subscription-key": KEY, authorization: `Bearer ${me.token}` },
      seconds,
      warmup: 2,
    });
    await server.stop();
    stopped = true;
    // The largest profile is the server's (next start may leave small ones from helper processes).
    const files = readdirSync(dir).map((f) => path.join(dir, f));
    const biggest = files.sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
    const prof = JSON.parse(readFileSync(biggest, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const self = new Map<number, number>();
    prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    const groups = new Map<string, number>();
    const frames = new Map<string, number>();
    for (const [id, us] of self) {
      const n = byId.get(id)!;
      const name = n.callFrame.functionName || "(anonymous)";
      if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") {
        groups.set(name, (groups.get(name) ?? 0) + us);
        continue;
      }
      const g = where(n.callFrame.url, name);
      groups.set(g, (groups.get(g) ?? 0) + us);
      const f = `${name} (${g})`;
      frames.set(f, (frames.get(f) ?? 0) + us);
    }
    const top = (m: Map<string, number>, k: number) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, k)
        .map(([name, us]) => ({ name, share: us / total }));
    return { database: server.database, load, groups: top(groups, 12), frames: top(frames, 15) };
  } finally {
    if (!stopped) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  profileRead((process.env.BENCH_DRIVER as "postgres" | "pglite") ?? "postgres").then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
