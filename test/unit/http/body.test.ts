/** lib/platform/http/body.ts: JSON body reading (content type, charset, emptiness, size limit, UTF-8). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, readJsonBody } from "@/lib/platform/http/body";

const URL_ = "http://test.local/v1/auth/start";
const JSON_TYPE = { "content-type": "application/json" };

function post(body: BodyInit | null, headers: Record<string, string> = JSON_TYPE): Request {
  return new Request(URL_, { method: "POST", body, headers });
}

/** A request whose body arrives as a stream of chunks, with no Content-Length. */
function streamed(chunks: Uint8Array[], headers: Record<string, string> = JSON_TYPE): Request {
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
  return new Request(URL_, { method: "POST", body: stream, headers, duplex: "half" } as RequestInit);
}

async function rejection(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DomainError, `expected a DomainError, got ${String(err)}`);
    return err;
  }
  assert.fail("readJsonBody accepted the request");
}

test("parses a JSON object", async () => {
  assert.deepEqual(await readJsonBody(post('{"identifier":"a@b.co","n":[1,2]}'), { required: true }), { identifier: "a@b.co", n: [1, 2] });
});

test("charset=utf-8 in any case, quoted or not, is accepted", async () => {
  for (const type of ["application/json; charset=utf-8", "application/json;charset=UTF-8", 'application/json; charset="utf-8"', "APPLICATION/JSON"]) {
    assert.deepEqual(await readJsonBody(post('{"a":1}', { "content-type": type }), { required: true }), { a: 1 }, type);
  }
});

test("another charset or media type is 415 validation.contentTypeUnsupported", async () => {
  for (const type of [
    "application/json; charset=iso-8859-1",
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/jsonp",
    "multipart/form-data; boundary=x",
  ]) {
    const err = await rejection(readJsonBody(post('{"a":1}', { "content-type": type }), { required: true }));
    assert.equal(err.code, "validation.contentTypeUnsupported", type);
    assert.equal(err.status, 415, type);
  }
});

test("a body without Content-Type is 415", async () => {
  const err = await rejection(readJsonBody(post(new TextEncoder().encode('{"a":1}'), {}), { required: true }));
  assert.equal(err.code, "validation.contentTypeUnsupported");
  assert.equal(err.status, 415);
});

test("a body without Content-Type is 415 even when the body is optional", async () => {
  const err = await rejection(readJsonBody(post(new TextEncoder().encode('{"a":1}'), {}), { required: false }));
  assert.equal(err.code, "validation.contentTypeUnsupported");
});

test("empty body: required is 400 validation.bodyMalformed, optional is undefined", async () => {
  const err = await rejection(readJsonBody(post(""), { required: true }));
  assert.equal(err.code, "validation.bodyMalformed");
  assert.equal(err.status, 400);
  assert.equal(await readJsonBody(post(""), { required: false }), undefined);
});

test("no body at all and not required: undefined without a content-type check", async () => {
  assert.equal(await readJsonBody(new Request(URL_, { method: "POST" }), { required: false }), undefined);
  assert.equal(await readJsonBody(new Request(URL_, { method: "GET" }), { required: false }), undefined);
});

test("malformed JSON is 400 validation.bodyMalformed", async () => {
  for (const text of ["{", '{"a":}', "{'a':1}", '{"a":1}}', "undefined", "NaN"]) {
    const err = await rejection(readJsonBody(post(text), { required: true }));
    assert.equal(err.code, "validation.bodyMalformed", text);
    assert.equal(err.status, 400, text);
  }
});

test("invalid UTF-8 is 400 validation.bodyMalformed (not replaced by U+FFFD)", async () => {
  const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]); // {"a":"\xC3("}
  const err = await rejection(readJsonBody(post(bytes), { required: true }));
  assert.equal(err.code, "validation.bodyMalformed");
  assert.match(err.message, /UTF-8/);
  const lone = new Uint8Array([...new TextEncoder().encode('{"a":"'), 0xff, ...new TextEncoder().encode('"}')]);
  assert.equal((await rejection(readJsonBody(post(lone), { required: true }))).code, "validation.bodyMalformed");
});

test("valid multi-byte UTF-8 is decoded", async () => {
  assert.deepEqual(await readJsonBody(post(new TextEncoder().encode('{"name":"Zoë 日本 🎉"}')), { required: true }), { name: "Zoë 日本 🎉" });
});

test("exactly the limit is accepted", async () => {
  const filler = "a".repeat(MAX_BODY_BYTES - '{"a":""}'.length);
  const text = `{"a":"${filler}"}`;
  assert.equal(new TextEncoder().encode(text).byteLength, MAX_BODY_BYTES);
  const body = (await readJsonBody(post(text), { required: true })) as { a: string };
  assert.equal(body.a.length, filler.length);
});

test("one byte over the limit is 413 validation.bodyTooLarge with maxBytes", async () => {
  assert.equal(MAX_BODY_BYTES, 1024 * 1024);
  const text = `{"a":"${"a".repeat(MAX_BODY_BYTES - '{"a":""}'.length + 1)}"}`;
  const err = await rejection(readJsonBody(post(text), { required: true }));
  assert.equal(err.code, "validation.bodyTooLarge");
  assert.equal(err.status, 413);
  assert.deepEqual(err.details, { maxBytes: MAX_BODY_BYTES });
});

test("streamed body without Content-Length is cut off as soon as it passes the limit", async () => {
  const chunk = new Uint8Array(256 * 1024).fill(0x20);
  let pulled = 0;
  const total = 16; // 4 MiB offered
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled++ < total) controller.enqueue(chunk);
      else controller.close();
    },
  });
  const req = new Request(URL_, { method: "POST", body: stream, headers: JSON_TYPE, duplex: "half" } as RequestInit);
  const err = await rejection(readJsonBody(req, { required: true }));
  assert.equal(err.code, "validation.bodyTooLarge");
  assert.ok(pulled <= 7, `read ${pulled} chunks of 256 KiB; should stop right after 1 MiB`);
});

test("streamed body in chunks under the limit is reassembled", async () => {
  const enc = new TextEncoder();
  const req = streamed([enc.encode('{"ide'), enc.encode('ntifier":"a@'), enc.encode('b.co"}')]);
  assert.deepEqual(await readJsonBody(req, { required: true }), { identifier: "a@b.co" });
});

test("a multi-byte character split across chunks is decoded", async () => {
  const bytes = new TextEncoder().encode('{"a":"é"}');
  const at = bytes.indexOf(0xc3) + 1;
  assert.deepEqual(await readJsonBody(streamed([bytes.slice(0, at), bytes.slice(at)]), { required: true }), { a: "é" });
});

test("a declared Content-Length over the limit is refused before reading", async () => {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new TextEncoder().encode("{}"));
      controller.close();
    },
  });
  const req = new Request(URL_, {
    method: "POST",
    body: stream,
    headers: { ...JSON_TYPE, "content-length": String(MAX_BODY_BYTES + 1) },
    duplex: "half",
  } as RequestInit);
  const err = await rejection(readJsonBody(req, { required: true }));
  assert.equal(err.code, "validation.bodyTooLarge");
  assert.ok(pulls <= 1);
});

test("content type is checked before the size", async () => {
  const text = "x".repeat(MAX_BODY_BYTES + 10);
  const err = await rejection(readJsonBody(post(text, { "content-type": "text/plain" }), { required: true }));
  assert.equal(err.code, "validation.contentTypeUnsupported");
});

// Deep nesting overflowed the stack downstream (a 500); refused before parsing.
const nestedText = (depth: number, open = "[", close = "]") => `${open.repeat(depth)}${close.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

test("nesting up to MAX_JSON_DEPTH is accepted, objects and arrays alike", async () => {
  assert.ok(Array.isArray(await readJsonBody(post(nestedText(MAX_JSON_DEPTH)), { required: true })));
  const obj = (await readJsonBody(post(nestedObjects(MAX_JSON_DEPTH)), { required: true })) as Record<string, unknown>;
  assert.equal(typeof obj.a, "object");
});

test("nesting deeper than MAX_JSON_DEPTH is 400 validation.bodyMalformed with maxDepth", async () => {
  for (const text of [nestedText(MAX_JSON_DEPTH + 1), nestedObjects(MAX_JSON_DEPTH + 1), nestedText(200_000), nestedObjects(100_000)]) {
    const err = await rejection(readJsonBody(post(text), { required: true }));
    assert.equal(err.code, "validation.bodyMalformed");
    assert.equal(err.status, 400);
    assert.deepEqual(err.details, { maxDepth: MAX_JSON_DEPTH });
  }
});

test("brackets inside strings (with escaped quotes and backslashes) do not count as nesting", async () => {
  const value = { s: `${"[{".repeat(1000)}\\"${"]}".repeat(1000)}`, t: "\\" };
  assert.deepEqual(await readJsonBody(post(JSON.stringify(value)), { required: true }), value);
});
