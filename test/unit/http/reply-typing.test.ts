/**
 * A handler's reply is typed by its contract's success schema: a view that
 * drifts from the contract does not compile. The `@ts-expect-error` lines below are the test: the
 * lint stage's typecheck (tsc --noEmit over the whole tree) fails if any of them compiles, i.e. if
 * a wrong field, a wrong literal or a missing field were accepted. At run time the handlers are
 * built, never called.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { health } from "@/lib/interface/api/contracts/auth";
import { submitTransfer } from "@/lib/interface/api/contracts/transfers";
import { endpoint, readEndpoint } from "@/lib/interface/http/endpoint";

test("a reply that matches its contract compiles; wrong fields, literals and missing fields do not", () => {
  const routes = [
    readEndpoint(health, async ({ now }) => ({ body: { status: "ok" as const, service: "remit-core", timestamp: now.toISOString() } })),
    // @ts-expect-error status is the literal "ok" in the contract
    readEndpoint(health, async ({ now }) => ({ body: { status: "fine" as const, service: "remit-core", timestamp: now.toISOString() } })),
    // @ts-expect-error timestamp is a string, not a Date
    readEndpoint(health, async ({ now }) => ({ body: { status: "ok" as const, service: "remit-core", timestamp: now } })),
    // @ts-expect-error service is required
    readEndpoint(health, async ({ now }) => ({ body: { status: "ok" as const, timestamp: now.toISOString() } })),
    // @ts-expect-error a submit answers transferStatus "registered", not "funding"
    endpoint(submitTransfer, async () => ({ body: { transferId: "trf_1", transferStatus: "funding" as const } })),
  ];
  assert.equal(routes.length, 5);
  for (const route of routes) assert.equal(typeof route, "function");
});
