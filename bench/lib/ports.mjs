// Ports for the bench's servers: BENCH_PORT (ours) and BENCH_BARE_PORT (the bare app) pin them,
// each server the next one up; unset, each server gets a port free at the time (the system's
// pick for a listen on port 0, as scripts/test.mjs's freePort), so benches run side by side
// without colliding.
import { createServer } from "node:net";

/** A port free now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Ports for one kind of server: from `pinned` (a BENCH_*_PORT value) on, `step` apart, or, when it
 * is unset, a free port each time.
 */
export function portsFrom(pinned, step = 1) {
  let next = pinned ? Number(pinned) : undefined;
  return async () => {
    if (next === undefined) return freePort();
    const port = next;
    next += step;
    return port;
  };
}
