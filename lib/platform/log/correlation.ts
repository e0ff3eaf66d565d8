import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The correlation id of the work in progress, kept end to end: a request's pipeline runs its work
 * inside it (lib/interface/http/endpoint.ts), a job enqueued meanwhile stores it (lib/platform/jobs/queue.ts), the
 * worker runs that job inside it again (lib/platform/jobs/worker.ts), and so on to the webhook deliveries
 * its events cause. Every log line written inside carries it (lib/platform/log/index.ts).
 */
interface Correlation {
  correlationId: string;
}

// One store per process: Next bundles route handlers separately, and all must share it.
const KEY = Symbol.for("remit.correlation");
type G = typeof globalThis & { [KEY]?: AsyncLocalStorage<Correlation> };
const store = ((globalThis as G)[KEY] ??= new AsyncLocalStorage<Correlation>());

export function withCorrelation<T>(correlationId: string, work: () => T): T {
  return store.run({ correlationId }, work);
}

export function currentCorrelationId(): string | undefined {
  return store.getStore()?.correlationId;
}

/** pino's mixin: the current correlation id on every line (a line's own correlationId wins). */
export function correlationMixin(): { correlationId?: string } {
  const correlationId = currentCorrelationId();
  return correlationId ? { correlationId } : {};
}
