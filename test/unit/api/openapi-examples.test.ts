/**
 * lib/interface/api/openapi.ts: every operation of the reference has a request example (when it has a
 * body) and an example for every response status, each valid against its schema; parameters are
 * described; 503 everywhere, 429 where throttled; tags in the journey's order; the webhooks.
 * A new contract without examples fails here: add `examples` next to it (lib/interface/http/contract.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { allContracts } from "@/lib/interface/api/contracts";
import { buildOpenApiDocument } from "@/lib/interface/api/openapi";
import { EVENT_EXAMPLES, EventSchema } from "@/lib/interface/api/contracts/events";
import { ERROR_STATUS, statusesOf, type ErrorCode } from "@/lib/platform/errors";

const doc = buildOpenApiDocument("http://localhost:3000") as any;
const METHODS = ["get", "post", "put", "patch", "delete"];
const operations: { id: string; op: any }[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => (item as any)[m]).map((m) => ({ id: `${m.toUpperCase()} ${path}`, op: (item as any)[m] })),
);
const examplesOf = (media: { example?: unknown; examples?: Record<string, unknown> } | undefined) =>
  media ? (media.example !== undefined ? 1 : Object.keys(media.examples ?? {}).length) : 0;

describe("OpenAPI examples", () => {
  it("covers every contract", () => assert.equal(operations.length, allContracts.length));

  it("every operation with a body has a request example", () => {
    const missing = operations
      .filter(({ op }) => op.requestBody && examplesOf(op.requestBody.content["application/json"] ?? op.requestBody.content["application/xml"]) === 0)
      .map((o) => o.id);
    assert.deepEqual(missing, [], `add examples.request to these contracts:\n${missing.join("\n")}`);
  });

  it("every response status with a body has an example", () => {
    const missing: string[] = [];
    for (const { id, op } of operations) {
      for (const [status, res] of Object.entries<{ content?: Record<string, never> }>(op.responses)) {
        // JSON answers, or an XML one (the sandbox's pain.001 file).
        if (res.content && examplesOf(res.content["application/json"] ?? res.content["application/xml"]) === 0) missing.push(`${id} ${status}`);
      }
    }
    assert.deepEqual(missing, [], `add examples.response to these contracts:\n${missing.join("\n")}`);
  });

  it("request and response examples are valid against the contract's schemas", () => {
    const invalid: string[] = [];
    for (const c of allContracts) {
      const ex = c.examples;
      if (c.body && ex?.request !== undefined) {
        const r = c.body.safeParse(ex.request);
        if (!r.success) invalid.push(`${c.operationId} request: ${r.error.message}`);
      }
      for (const example of [ex?.response, ...Object.values(ex?.otherResponses ?? {}).map((o) => o.example)]) {
        if (!c.success.schema || example === undefined) continue;
        const r = c.success.schema.safeParse(example);
        if (!r.success) invalid.push(`${c.operationId} response: ${r.error.message}`);
      }
    }
    assert.deepEqual(invalid, []);
  });

  it("each error status lists its codes, one example per code, each answering that status", () => {
    for (const { id, op } of operations) {
      for (const [status, res] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400) continue;
        const examples = res.content["application/json"].examples as Record<string, { value: { error: { code: ErrorCode } } }>;
        for (const [code, { value }] of Object.entries(examples)) {
          assert.ok(code in ERROR_STATUS, `${id} ${status}: unknown code ${code}`);
          assert.equal(value.error.code, code);
          assert.ok(statusesOf(code as ErrorCode).includes(Number(status)), `${id}: ${code} is not a ${status}`);
          assert.ok(res.description.includes(code), `${id} ${status}: description names ${code}`);
        }
      }
    }
  });

  it("every operation documents 503 internal.unavailable and 500; 429 exactly where throttled, with Retry-After", () => {
    const throttled = new Set([
      "registerStart",
      "registerVerifyOtp",
      "registerSetPassword",
      "login",
      "passwordResetStart",
      "passwordResetComplete",
      "confirmTransfer",
    ]);
    for (const { id, op } of operations) {
      assert.ok(op.responses["503"]?.content["application/json"].examples["internal.unavailable"], `${id}: 503`);
      assert.ok(op.responses["503"].headers?.["Retry-After"], `${id}: 503 Retry-After`);
      assert.ok(op.responses["500"], `${id}: 500`);
      assert.equal(Boolean(op.responses["429"]), throttled.has(op.operationId), `${id}: 429`);
      if (op.responses["429"]) assert.ok(op.responses["429"].headers?.["Retry-After"], `${id}: 429 Retry-After`);
    }
  });

  it("path and query parameters are described", () => {
    const bare: string[] = [];
    for (const { id, op } of operations) {
      for (const p of op.parameters ?? []) if (p.in !== "header" && !(p.description ?? p.schema?.description)) bare.push(`${id} ${p.in} ${p.name}`);
    }
    assert.deepEqual(bare, [], `describe these parameters (.meta({ description })):\n${bare.join("\n")}`);
  });

  it("tags follow the journey", () => {
    const names: string[] = doc.tags.map((t: { name: string }) => t.name);
    const journey = ["Auth", "Profile and KYC", "Beneficiaries", "Quotes", "Transfers", "Events", "Webhooks", "Sandbox"];
    assert.deepEqual(
      names.filter((n) => journey.includes(n)),
      journey,
    );
    assert.equal(names.at(-1), "Sandbox");
    for (const t of doc.tags) assert.ok(t.description, `tag ${t.name} has a description`);
  });
});

describe("OpenAPI webhooks", () => {
  it("documents each event type with its payload, an example and the Standard Webhooks headers", () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [
      "beneficiary.state.changed",
      "claim.status.changed",
      "customer.status.changed",
      "payout.repair.required",
      "payout.repaired",
      "refund.completed",
      "refund.failed",
      "transfer.state.changed",
    ]);
    for (const [type, item] of Object.entries<any>(doc.webhooks)) {
      const media = item.post.requestBody.content["application/json"];
      assert.ok(media.schema, `${type}: schema`);
      assert.equal(media.example.eventType, type);
      const headers = item.post.parameters.filter((p: { in: string }) => p.in === "header").map((p: { name: string }) => p.name);
      assert.deepEqual(headers.sort(), ["webhook-id", "webhook-signature", "webhook-timestamp"]);
      assert.match(item.post.description, /HMAC-SHA256/);
    }
  });

  it("the customer.status.changed example is the envelope decisions 9 gives, and signs and verifies as documented", () => {
    const example = EVENT_EXAMPLES["customer.status.changed"];
    for (const e of Object.values(EVENT_EXAMPLES)) assert.ok(EventSchema.safeParse(e).success, JSON.stringify(e));
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = JSON.stringify(example);
    const at = new Date("2026-11-21T10:00:00Z");
    const headers = {
      "webhook-id": "evt_x",
      "webhook-timestamp": String(at.getTime() / 1000),
      "webhook-signature": new Webhook(secret).sign("evt_x", at, body),
    };
    assert.match(headers["webhook-signature"], /^v1,[A-Za-z0-9+/]+=*$/);
    assert.equal(
      doc.webhooks["customer.status.changed"].post.parameters.find((p: { name: string }) => p.name === "webhook-timestamp").schema.example,
      headers["webhook-timestamp"],
    );
  });
});
