import type { ChildProcess } from "node:child_process";

/**
 * How long a test's own `next start` may take to answer (a production server migrates a fresh
 * database and loads three sanctions lists first; on a loaded 2-core machine that has taken over
 * 12 s), polled every 100 ms so a quick start is not kept waiting.
 */
export const SERVER_READY_WITHIN_MS = 90_000;
/** After SIGTERM, how long a server may take to close before it is killed (a hung shutdown must not hang the test file). */
const SERVER_STOP_GRACE_MS = 10_000;

/** Polls `ready` until it holds; false if the process exits or the deadline passes first. */
export async function waitUntilReady(child: ChildProcess, ready: () => Promise<boolean>, withinMs = SERVER_READY_WITHIN_MS): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await ready()) return true;
    if (child.exitCode !== null || child.signalCode !== null) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Stops the process: SIGTERM, then SIGKILL if it has not exited within the grace period. */
export async function stopProcess(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), SERVER_STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
