/**
 * bench/lib/body-bytes.mjs: the per-call table's body bytes, from one request with the
 * load's headers, as the bytes came over the wire (not decoded), with the items a list answers.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
// @ts-expect-error: plain ESM helpers
import { bodyOf, fetchedBody, itemsOf } from "../../../bench/lib/body-bytes.mjs";

const EVENTS = JSON.stringify({ items: [{ id: 1 }, { id: 2 }, { id: 3 }], nextCursor: null });

describe("bench body bytes", () => {
  let base = "";
  let seen: IncomingHttpHeaders = {};
  const server = createServer((req, res) => {
    seen = req.headers;
    if (req.url === "/gzip") {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync(EVENTS));
      return;
    }
    // Chunked: the framing is not the body's.
    res.writeHead(200, { "content-type": "application/json" });
    res.write(EVENTS.slice(0, 10));
    res.end(EVENTS.slice(10));
  });
  before(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it("one request with only the given headers: the body's bytes without the chunked framing, and the items of its list", async () => {
    const r = await bodyOf(`${base}/events`, { headers: { "ocp-apim-subscription-key": "k" } });
    assert.deepEqual(r, { bytes: Buffer.byteLength(EVENTS), status: 200, encoding: "", items: 3 });
    assert.equal(seen["ocp-apim-subscription-key"], "k");
    // As wrk: no compression asked for.
    assert.equal(seen["accept-encoding"], undefined);
  });

  it("an encoded body: its bytes as sent, its encoding, no items", async () => {
    const r = await bodyOf(`${base}/gzip`, { headers: { "accept-encoding": "gzip" } });
    assert.deepEqual(r, { bytes: gzipSync(EVENTS).length, status: 200, encoding: "gzip", items: undefined });
  });

  it("items: an array's length, a page's items, else none (a transfer's state history is no list)", () => {
    assert.equal(itemsOf("[1,2]"), 2);
    assert.equal(itemsOf(EVENTS), 3);
    assert.equal(itemsOf('{"transferId":"t","stateHistory":[{"state":"registered"}]}'), undefined);
    assert.equal(itemsOf('{"a":1}'), undefined);
    assert.equal(itemsOf("not json"), undefined);
  });

  it("a write's body: the last answer fetched by its work, and the work's output; fetch is restored after", async () => {
    const original = globalThis.fetch;
    const r = await fetchedBody(async () => {
      await fetch(`${base}/gzip`).then((res) => res.text());
      return fetch(`${base}/events`, { headers: { "accept-encoding": "identity" } }).then((res) => res.json());
    });
    assert.equal(r.bytes, Buffer.byteLength(EVENTS));
    assert.equal(r.encoding, "");
    assert.deepEqual(r.output, JSON.parse(EVENTS));
    assert.equal(globalThis.fetch, original);
  });

  it("a failed work: no output, fetch restored", async () => {
    const original = globalThis.fetch;
    const r = await fetchedBody(async () => {
      throw new Error("409");
    });
    assert.equal(r.output, undefined);
    assert.ok(Number.isNaN(r.bytes));
    assert.equal(globalThis.fetch, original);
  });
});
