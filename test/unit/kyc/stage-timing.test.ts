/**
 * The verification's stage timing (lib/identity/kyc/verification/stage-timing.ts, used by
 * scripts/kyc/quality.ts): a stage is recorded with its wall and CPU time only while a recorder is
 * set, nested stages each on their own, and a failing stage is still recorded and still fails.
 */
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { recordStages, timed } from "@/lib/identity/kyc/verification/stage-timing";

const spin = (ms: number) => {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x++;
  return x;
};

afterEach(() => recordStages(null));

describe("verification stage timing", () => {
  test("records each stage's wall and CPU time, nested stages apart", async () => {
    const seen: Array<{ stage: string; wallMs: number; cpuMs: number }> = [];
    recordStages((stage, wallMs, cpuMs) => seen.push({ stage, wallMs, cpuMs }));
    const result = await timed("outer", async () => {
      spin(30);
      return timed("inner", async () => spin(20) * 0 + 7);
    });
    assert.equal(result, 7);
    assert.deepEqual(
      seen.map((s) => s.stage),
      ["inner", "outer"],
    );
    const [inner, outer] = seen;
    assert.ok(inner.wallMs >= 19 && outer.wallMs >= inner.wallMs + 29, JSON.stringify(seen));
    // Busy work is CPU time (a little less than the wall time on a loaded machine, never zero).
    assert.ok(outer.cpuMs > 0 && outer.cpuMs >= inner.cpuMs, JSON.stringify(seen));
  });

  test("records nothing without a recorder, and a failing stage is recorded and rethrown", async () => {
    const seen: string[] = [];
    assert.equal(await timed("unrecorded", async () => 1), 1);
    recordStages((stage) => seen.push(stage));
    await assert.rejects(
      timed("failing", async () => {
        throw new Error("boom");
      }),
      /boom/,
    );
    recordStages(null);
    await timed("after", async () => 2);
    assert.deepEqual(seen, ["failing"]);
  });
});
