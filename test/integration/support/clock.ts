/**
 * The server's clock in integration tests (sandbox clock control, which the test server enables).
 * It is shared by every test file and only moves forward: anything time-sensitive (a proof's iat,
 * an expiry) is computed from it, never from Date.now().
 */
import assert from "node:assert/strict";
import { call } from "./client";

/** Moves the server's clock forward; returns its new time (advancing by 0 reads it). */
export async function advanceClock(seconds: number): Promise<Date> {
  const res = await call("POST", "/v1/sandbox/clock", { body: { advanceSeconds: seconds } });
  assert.equal(res.status, 200, res.text);
  return new Date(res.body.now);
}

/** The server's current time. */
export const serverNow = (): Promise<Date> => advanceClock(0);

/** The server's time in whole seconds (a JWT's iat). */
export async function serverSeconds(): Promise<number> {
  return Math.floor((await serverNow()).getTime() / 1000);
}

/**
 * The server's whole second, read early in that second (its millisecond part below 300), so a
 * request sent right away is judged within the same second or the next. Needed only where one
 * second decides the outcome (iat exactly 61 s ahead).
 */
export async function serverSecondsEarly(): Promise<number> {
  for (let i = 0; i < 5; i++) {
    const now = (await serverNow()).getTime();
    const ms = now % 1000;
    if (ms < 300) return Math.floor(now / 1000);
    await new Promise((r) => setTimeout(r, 1000 - ms + 10));
  }
  throw new Error("could not read the server clock early in a second");
}

/** Runs `fn` between two reads of the server clock: any time the server stamped lies in [before, after]. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; before: number; after: number }> {
  const before = (await serverNow()).getTime();
  const result = await fn();
  const after = (await serverNow()).getTime();
  return { result, before, after };
}
