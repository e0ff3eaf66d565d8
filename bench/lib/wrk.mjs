// wrk (Debian package `wrk`) for the per-call read table: c connections, a warm-up run, then the
// measured run. Parses requests/s, p50, p99 (--latency) and each kind of error from its text output.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

function ms(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "ms" ? v : m[2] === "s" ? v * 1000 : v * 60_000;
}

/**
 * The errors of a wrk run by kind, as wrk counts them: `non2xx` answers (a status outside 2xx and
 * 3xx: a real failure), and its socket errors: `connect`, `read` (the server closed or reset the
 * connection), `write`, and `timeout`: a request not answered within wrk's timeout (2 s by default),
 * which wrk leaves out of its latency figures, so its p99 is of the answered requests only.
 */
export function errorsOf(stdout) {
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const [connect, read, write, timeout] = socket ? socket.slice(1).map(Number) : [0, 0, 0, 0];
  return { non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0), connect, read, write, timeout };
}

/** A wrk run's figures from its text output (exported for the tests). */
export function parseWrk(stdout) {
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p50: ms(/\n\s+50%\s+(\S+)/.exec(stdout)?.[1] ?? "NaN"),
    p99: ms(/\n\s+99%\s+(\S+)/.exec(stdout)?.[1] ?? "NaN"),
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0),
    errors: errorsOf(stdout),
  };
}

/**
 * @returns {Promise<{ rps: number, p50: number, p99: number, requests: number, non2xx: number,
 *   errors: { non2xx: number, connect: number, read: number, write: number, timeout: number } }>}
 */
/** script: a Lua file (wrk -s), given `env` (e.g. WRK_BODY for bench/lib/wrk-post.lua). */
export async function wrk(url, { headers = {}, connections = 50, seconds = 10, warmup = 4, threads = 2, script, env } = {}) {
  const args = (d) => [
    "-t",
    String(threads),
    "-c",
    String(connections),
    "-d",
    `${d}s`,
    "--latency",
    ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    ...(script ? ["-s", script] : []),
    url,
  ];
  const options = { maxBuffer: 1 << 20, env: { ...process.env, ...env } };
  if (warmup > 0) await run("wrk", args(warmup), options);
  const { stdout } = await run("wrk", args(seconds), options);
  const parsed = parseWrk(stdout);
  return { ...parsed, non2xx: parsed.errors.non2xx };
}
