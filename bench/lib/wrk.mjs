// wrk (Debian package `wrk`) for the per-call read table: c connections, a warm-up run, then the
// measured run. Parses requests/s, p50, p99 (--latency) and non-2xx and socket-error counts from its text output.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

function ms(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "ms" ? v : m[2] === "s" ? v * 1000 : v * 60_000;
}

/** @returns {Promise<{ rps: number, p50: number, p99: number, non2xx: number, requests: number }>} */
export async function wrk(url, { headers = {}, connections = 50, seconds = 10, warmup = 4, threads = 2 } = {}) {
  const args = (d) => [
    "-t",
    String(threads),
    "-c",
    String(connections),
    "-d",
    `${d}s`,
    "--latency",
    ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    url,
  ];
  if (warmup > 0) await run("wrk", args(warmup), { maxBuffer: 1 << 20 });
  const { stdout } = await run("wrk", args(seconds), { maxBuffer: 1 << 20 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const p50 = ms(/\n\s+50%\s+(\S+)/.exec(stdout)?.[1] ?? "NaN");
  const p99 = ms(/\n\s+99%\s+(\S+)/.exec(stdout)?.[1] ?? "NaN");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  // Timeouts (2 s) and socket errors are not in wrk's latency figures: counted as errors.
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { rps, p50, p99, non2xx: non2xx + socketErrors, requests };
}
