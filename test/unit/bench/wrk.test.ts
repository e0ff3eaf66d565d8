/**
 * bench/lib/wrk.mjs: wrk's text output read into figures, each kind of error apart, so
 * the per-call table tells a timeout (an answer after wrk's 2 s, left out of its latencies) from a
 * failure (a non-2xx answer, a closed or reset connection).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
// @ts-expect-error: plain ESM helpers
import { parseWrk } from "../../../bench/lib/wrk.mjs";

// wrk 4.1's output for the events read on PGlite (bench/calls.ts's headers, c=50, 8 s).
const TIMEOUTS = `Running 8s test @ http://127.0.0.1:4310/v1/core/events?limit=20
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   188.44ms  156.41ms   1.91s    89.40%
    Req/Sec   132.40     77.66   326.00     63.43%
  Latency Distribution
     50%  171.44ms
     75%  194.40ms
     90%  277.88ms
     99%    1.00s 
  1814 requests in 8.05s, 2.95MB read
  Socket errors: connect 0, read 0, write 0, timeout 23
Requests/sec:    225.22
Transfer/sec:    375.00KB
`;

const FAILURES = `Running 8s test @ http://127.0.0.1:4300/v1/core/profile
  2 threads and 50 connections
  Latency Distribution
     50%  812.00us
     75%    1.20ms
     90%    2.00ms
     99%    4.50ms
  9000 requests in 8.00s, 1.00MB read
  Socket errors: connect 2, read 5, write 1, timeout 0
  Non-2xx or 3xx responses: 7
Requests/sec:   1125.00
`;

describe("bench wrk: its output's figures and errors by kind", () => {
  it("timeouts are counted apart from the failures, with the run's rate and latencies", () => {
    assert.deepEqual(parseWrk(TIMEOUTS), {
      rps: 225.22,
      p50: 171.44,
      p99: 1000,
      requests: 1814,
      errors: { non2xx: 0, connect: 0, read: 0, write: 0, timeout: 23 },
    });
  });

  it("non-2xx answers and each socket error apart; microseconds read as milliseconds", () => {
    const r = parseWrk(FAILURES);
    assert.deepEqual(r.errors, { non2xx: 7, connect: 2, read: 5, write: 1, timeout: 0 });
    assert.equal(r.p50, 0.812);
    assert.equal(r.p99, 4.5);
  });

  it("a run without errors has none of either line: all kinds 0", () => {
    const clean = TIMEOUTS.replace(/ {2}Socket errors.*\n/, "");
    assert.deepEqual(parseWrk(clean).errors, { non2xx: 0, connect: 0, read: 0, write: 0, timeout: 0 });
  });
});
