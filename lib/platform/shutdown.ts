import http from "node:http";
import { logger } from "@/lib/platform/log";

/**
 * What the web process does on SIGTERM. `next start` on its own stops accepting
 * connections but keeps answering on kept-alive ones, /readyz included, and exits only when every
 * client has gone quiet: a load balancer is never told to stop sending. Here, from the signal on:
 * - /readyz answers 503 (lib/interface/http/operations.ts asks isShuttingDown());
 * - every response says `Connection: close` and its connection closes after it, so a request in
 *   flight finishes and its client reconnects elsewhere;
 * - idle kept-alive connections are closed at once and as they become idle;
 * - the process exits after SHUTDOWN_TIMEOUT_SECONDS whatever is still open (a job or request cut
 *   there is retried: jobs by their lease, requests by their client's Idempotency-Key).
 * Next's own SIGTERM handler still runs: it stops the listener and exits (143) as soon as the last
 * connection has closed, which the above makes happen within the bound.
 */
const KEY = Symbol.for("remit.shutdown");

interface Drain {
  shuttingDown: boolean;
  /** The servers that answered a request (next start exposes none; its requests name it). */
  servers: Set<http.Server>;
  /** Responses not finished yet: those whose headers are unsent get `Connection: close` at the signal. */
  inFlight: Set<http.ServerResponse>;
}

type G = typeof globalThis & { [KEY]?: Drain };

function drain(): Drain {
  const g = globalThis as G;
  return (g[KEY] ??= { shuttingDown: false, servers: new Set(), inFlight: new Set() });
}

/** True from SIGTERM on (shared through globalThis: the route bundles and instrumentation are separate modules). */
export function isShuttingDown(): boolean {
  return (globalThis as G)[KEY]?.shuttingDown === true;
}

/** How often connections that became idle during the drain are looked for and closed. */
const SWEEP_MS = 100;

/**
 * Installs the drain once per process (instrumentation.ts). `onSignal` runs at SIGTERM too (the
 * in-process worker stops claiming jobs). Node's http.Server exposes closeIdleConnections and
 * closeAllConnections; `next start` exposes no server, so the server's emit is wrapped (as in
 * lib/platform/http/request-guard.ts) to learn it and to mark each response during the drain.
 */
export function drainOnSigterm(timeoutSeconds: number, onSignal: () => void = () => {}): void {
  const proto = http.Server.prototype as http.Server & { [KEY]?: true };
  if (proto[KEY]) return;
  proto[KEY] = true;
  const state = drain();
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const res = args[1] as http.ServerResponse;
      state.servers.add(this);
      if (state.shuttingDown) res.shouldKeepAlive = false;
      else {
        state.inFlight.add(res);
        res.once("close", () => state.inFlight.delete(res));
      }
    }
    return (emit as (event: string | symbol, ...args: unknown[]) => boolean).call(this, event, ...args);
  } as typeof proto.emit;

  process.once("SIGTERM", () => {
    state.shuttingDown = true;
    logger().info({ timeoutSeconds }, "SIGTERM: /readyz answers 503, connections close after their response, exit within the timeout");
    // `Connection: close` on every response not yet started (Node writes it when keep-alive is off).
    for (const res of state.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    state.inFlight.clear();
    const sweep = () => {
      for (const server of state.servers) server.closeIdleConnections();
    };
    sweep();
    setInterval(sweep, SWEEP_MS).unref();
    setTimeout(() => {
      for (const server of state.servers) server.closeAllConnections();
      process.exit(143);
    }, timeoutSeconds * 1000).unref();
    try {
      onSignal();
    } catch {
      // Stopping the worker is best effort: the bound above ends the process regardless.
    }
  });
}
