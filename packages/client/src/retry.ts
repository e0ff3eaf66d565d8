/**
 * The client's fetch: an Idempotency-Key on every Core API POST (the service requires one there),
 * and safe retries of the same request with the same key when the service answers
 * - 409 `idempotency.conflict` with hint `retry_later` (the first attempt is still running),
 * - 429 (throttled) or 503 (unavailable), waiting as `Retry-After` says (bounded).
 * 429 is a refusal before any work, so every request may be resent; a 503 (or a proxy's) might
 * come after the work, so a POST without an Idempotency-Key is not resent after one.
 */
export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Longest wait honoured per retry, in ms (default 30 000): a longer Retry-After is an answer, not a wait. */
  maxDelayMs?: number;
  /** Wait when the answer names none, in ms (default 1 000; doubled per retry). */
  defaultDelayMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry (logging, tests). */
  onRetry?: (info: { attempt: number; status: number; delayMs: number; request: Request }) => void;
}

type Fetch = (input: Request) => Promise<Response>;

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether the service requires an Idempotency-Key (decisions section 8: every POST under /v1/core). */
export function needsIdempotencyKey(method: string, url: string): boolean {
  return (method === "POST" || method === "PUT") && new URL(url).pathname.startsWith("/v1/core/");
}

/** Milliseconds a Retry-After header asks for (delay-seconds or HTTP date), or null. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  const raw = value?.trim();
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = /^[A-Za-z]{3}, /.test(raw) ? Date.parse(raw) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

async function isInFlightConflict(res: Response): Promise<boolean> {
  if (res.status !== 409) return false;
  try {
    const body = (await res.clone().json()) as { error?: { code?: string; hint?: string } };
    return body.error?.code === "idempotency.conflict" && body.error.hint === "retry_later";
  } catch {
    return false;
  }
}

export function retryingFetch(base: Fetch, options: RetryOptions = {}): Fetch {
  const retries = options.retries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const defaultDelayMs = options.defaultDelayMs ?? 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return async (request) => {
    if (needsIdempotencyKey(request.method, request.url) && !request.headers.has("idempotency-key")) {
      request.headers.set("idempotency-key", crypto.randomUUID());
    }
    const keyed = request.headers.has("idempotency-key");
    for (let attempt = 1; ; attempt++) {
      // A Request body is read once: every attempt sends a copy, the same bytes and the same key.
      const res = await base(request.clone());
      const retryable =
        res.status === 429 || (res.status === 503 && (keyed || IDEMPOTENT_METHODS.has(request.method))) || (keyed && (await isInFlightConflict(res)));
      if (!retryable || attempt > retries) return res;
      const asked = retryAfterMs(res.headers.get("retry-after"));
      if (asked !== null && asked > maxDelayMs) return res;
      const delayMs = asked ?? Math.min(defaultDelayMs * 2 ** (attempt - 1), maxDelayMs);
      options.onRetry?.({ attempt, status: res.status, delayMs, request });
      await res.body?.cancel();
      await sleep(delayMs);
    }
  };
}
