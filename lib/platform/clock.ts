/**
 * The one source of time. Everything that reads "now" calls clock.now(), so timers, expiries and
 * lockouts can be tested by moving this clock (sandbox clock control) instead of waiting.
 */
const OFFSET = Symbol.for("remit.clock.offsetMs");
type ClockGlobal = typeof globalThis & { [OFFSET]?: number };
const g = globalThis as ClockGlobal;

export const clock = {
  now(): Date {
    return new Date(Date.now() + (g[OFFSET] ?? 0));
  },
  nowMs(): number {
    return Date.now() + (g[OFFSET] ?? 0);
  },
  /** Moves time forward for this process (sandbox clock control and tests only). */
  advance(ms: number): void {
    g[OFFSET] = (g[OFFSET] ?? 0) + ms;
  },
  offsetMs(): number {
    return g[OFFSET] ?? 0;
  },
  reset(): void {
    g[OFFSET] = 0;
  },
};

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** RFC 3339 UTC with milliseconds, the wire format of every timestamp. */
export function iso(date: Date): string {
  return date.toISOString();
}
