import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { backoffWithJitter, JITTER, PROBE_EVERY_SECONDS, probeDelaySeconds, retryAfterSeconds, SCHEDULE } from "@/lib/partners/webhooks/retry";

describe("webhook backoff with jitter", () => {
  it("stays within [scheduled, scheduled + 20 %] and is not the same for every endpoint", () => {
    for (let failures = 1; failures <= SCHEDULE.length + 2; failures++) {
      const base = SCHEDULE[Math.min(failures - 1, SCHEDULE.length - 1)];
      const seen = new Set<number>();
      for (let i = 0; i < 200; i++) {
        const delay = backoffWithJitter(failures);
        assert.ok(delay >= base && delay <= Math.round(base * (1 + JITTER)), `failure ${failures}: ${delay} outside [${base}, ${base * (1 + JITTER)}]`);
        seen.add(delay);
      }
      assert.ok(seen.size > 1, `failure ${failures}: jittered (${[...seen].join(", ")})`);
    }
  });

  it("spans at least 24 hours even with no jitter at all, and at most the jittered maximum", () => {
    const total = (random: () => number) => SCHEDULE.reduce((sum, _, i) => sum + backoffWithJitter(i + 1, random), 0);
    assert.ok(total(() => 0) >= 24 * 3600);
    assert.equal(
      total(() => 0),
      SCHEDULE.reduce((a, b) => a + b, 0),
    );
    assert.ok(total(() => 0.999999) <= Math.ceil(SCHEDULE.reduce((a, b) => a + b, 0) * (1 + JITTER)) + SCHEDULE.length);
  });
});

describe("the probe of a failing endpoint (issue 36 item 7)", () => {
  it("comes 5, 10, 15 and 30 s apart after the first failure, then every 50 s: never more than a minute", () => {
    const times: number[] = [];
    for (let t = 5; t < 3600; t += probeDelaySeconds(t)) times.push(t);
    assert.deepEqual(times.slice(0, 6), [5, 15, 30, 60, 110, 160]);
    assert.ok(times.slice(1).every((t, i) => t - times[i] <= 60));
    assert.equal(probeDelaySeconds(7200), PROBE_EVERY_SECONDS);
  });
});

describe("Retry-After", () => {
  const now = new Date("2026-11-22T10:00:00Z");
  it("reads delay-seconds and HTTP dates, caps them, ignores junk", () => {
    assert.equal(retryAfterSeconds("120", now, 3600), 120);
    assert.equal(retryAfterSeconds(" 0 ", now, 3600), 0);
    assert.equal(retryAfterSeconds("999999", now, 3600), 3600);
    assert.equal(retryAfterSeconds("Sun, 22 Nov 2026 10:02:30 GMT", now, 3600), 150);
    assert.equal(retryAfterSeconds("Sun, 22 Nov 2026 09:00:00 GMT", now, 3600), 0, "a date in the past: no wait");
    assert.equal(retryAfterSeconds(["30", "60"], now, 3600), 30);
    assert.equal(retryAfterSeconds(undefined, now, 3600), null);
    assert.equal(retryAfterSeconds("soon", now, 3600), null);
    assert.equal(retryAfterSeconds("-5", now, 3600), null);
  });
});
