/**
 * Standard Webhooks retry schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h):
 * about 28 hours in all, past the 24 hours decisions section 9 asks for.
 */
export const SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** Up to this fraction is added to each delay, so endpoints that failed together are not retried in lockstep. */
export const JITTER = 0.2;

/**
 * Seconds before attempt n+1 after n failures: the scheduled delay plus 0-20 % jitter. The jitter
 * only ever adds, so the schedule's minimum spacing and its 24-hour span still hold.
 */
export function backoffWithJitter(failures: number, random: () => number = Math.random): number {
  const base = SCHEDULE[Math.min(Math.max(failures, 1) - 1, SCHEDULE.length - 1)];
  return Math.round(base * (1 + JITTER * random()));
}

/**
 * The probe of a failing endpoint (lib/partners/webhooks/probe-job.ts): after the first
 * failure it tries again 5, 10, 15 and 30 s apart (seconds: most outages are a restart), then
 * every PROBE_EVERY_SECONDS while the partner has events pending. 50 s, not 60: a probe's POST may
 * take WEBHOOK_TIMEOUT_MS (5 s) and the worker picks a due job up within WORKER_POLL_MS, so a
 * recovered endpoint hears from us within a minute of being back.
 */
export const PROBE_SCHEDULE = [5, 10, 15, 30];
export const PROBE_EVERY_SECONDS = 50;

/** Seconds until the next probe of an endpoint failing for `failingSeconds` (since its first failure). */
export function probeDelaySeconds(failingSeconds: number): number {
  let end = 0;
  for (const delay of PROBE_SCHEDULE) {
    end += delay;
    if (failingSeconds < end) return delay;
  }
  return PROBE_EVERY_SECONDS;
}

/**
 * The seconds an endpoint asked us to wait (RFC 9110 Retry-After: delay-seconds or an HTTP date),
 * capped at `max`; null when absent or unreadable.
 */
export function retryAfterSeconds(value: string | string[] | undefined, now: Date, max: number): number | null {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return null;
  let seconds: number;
  if (/^\d+$/.test(raw)) seconds = Number(raw);
  else {
    // An HTTP date always names its day and month; Date.parse alone would take "-5" as a year.
    const at = /^[A-Za-z]{3}, /.test(raw) ? Date.parse(raw) : Number.NaN;
    if (Number.isNaN(at)) return null;
    seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  return Math.min(Math.max(seconds, 0), max);
}
