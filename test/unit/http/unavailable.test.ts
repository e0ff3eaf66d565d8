/** lib/platform/unavailable.ts: a database that cannot be reached is 503 internal.unavailable, not 500. */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import postgres from "postgres";
import { errorResponse } from "@/lib/platform/http/envelope";
import { isTemporarilyUnavailable, unavailable } from "@/lib/platform/unavailable";

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

test("the driver's error for a refused connection is temporarily unavailable", async () => {
  const sql = postgres({ host: "127.0.0.1", port: await closedPort(), max: 1, connect_timeout: 2, onnotice: () => {} });
  const err = await sql`select 1`.then(
    () => assert.fail("connected to a closed port"),
    (e: unknown) => e,
  );
  await sql.end({ timeout: 1 });
  assert.equal(isTemporarilyUnavailable(err), true, String(err));
});

test("connection-class SQLSTATEs and wrapped causes are unavailable; other errors are not", () => {
  for (const code of ["53300", "57P01", "57P03", "08006", "CONNECTION_ENDED", "ECONNRESET"]) assert.equal(isTemporarilyUnavailable({ code }), true, code);
  assert.equal(isTemporarilyUnavailable(new Error("Failed query", { cause: Object.assign(new Error("x"), { code: "57P01" }) })), true);
  for (const code of ["23505", "42P01", "40001", undefined]) assert.equal(isTemporarilyUnavailable({ code }), false, String(code));
  assert.equal(isTemporarilyUnavailable(new TypeError("x is undefined")), false);
  assert.equal(isTemporarilyUnavailable(null), false);
});

test("answers 503 internal.unavailable with Retry-After and retry_later", async () => {
  const res = errorResponse(unavailable(), "0b7e4c2a-5f1d-4e8b-9a63-2c4d8e1f7a90");
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("retry-after"), "5");
  const body = await res.json();
  assert.equal(body.error.code, "internal.unavailable");
  assert.equal(body.error.remediation, "retry_later");
});
