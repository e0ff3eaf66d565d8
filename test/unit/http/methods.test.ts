/** lib/interface/http/methods.ts: 405 route.methodNotAllowed in the envelope, with an Allow header. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { methods } from "@/lib/interface/http/methods";

const ctx = { params: Promise.resolve({}) };
const ok = async () => new Response("ok", { status: 200 });

test("declared methods are the given handlers", async () => {
  const m = methods({ GET: ok });
  const res = await m.GET(new Request("http://test.local/x"), ctx);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "ok");
});

test("other methods: 405 route.methodNotAllowed, Allow lists the declared methods, envelope", async () => {
  const m = methods({ GET: ok, POST: ok });
  for (const verb of ["PUT", "PATCH", "DELETE"] as const) {
    const res = await m[verb](new Request("http://test.local/x", { method: verb, headers: { "x-correlation-id": "cid-1" } }), ctx);
    assert.equal(res.status, 405, verb);
    assert.equal(res.headers.get("allow"), "GET, POST");
    assert.equal(res.headers.get("x-correlation-id"), "cid-1");
    const body = await res.json();
    assert.deepEqual(Object.keys(body).sort(), ["correlationId", "error"]);
    assert.equal(body.correlationId, "cid-1");
    assert.equal(body.error.code, "route.methodNotAllowed");
    assert.deepEqual(body.error.details, { allow: "GET, POST" });
    assert.match(body.error.message, new RegExp(`^${verb} is not supported here`));
  }
});

test("a POST-only route refuses GET", async () => {
  const m = methods({ POST: ok });
  const res = await m.GET(new Request("http://test.local/x"), ctx);
  assert.equal(res.status, 405);
  assert.equal(res.headers.get("allow"), "POST");
});
