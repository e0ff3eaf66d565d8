/** fetchDocument: a published document is read whole up to its cap; past the cap it is refused without buffering it. */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { fetchDocument } from "@/lib/platform/fetch-document";

let server: Server;
let base: string;
let endlessBytesSent = 0;

before(async () => {
  server = createServer((req, res) => {
    if (req.url === "/small") return void res.end("<Cube/>");
    if (req.url === "/missing") return void res.writeHead(404).end("no");
    // An endless body: chunks until the client goes away.
    res.writeHead(200, { "content-type": "text/plain" });
    const chunk = Buffer.alloc(64 * 1024, 120);
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) endlessBytesSent += chunk.length;
      if (!res.destroyed) res.once("drain", pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("fetchDocument", () => {
  test("reads a document under its cap", async () => {
    assert.equal((await fetchDocument(`${base}/small`, { maxBytes: 1024 })).toString(), "<Cube/>");
  });

  test("an error status is refused", async () => {
    await assert.rejects(fetchDocument(`${base}/missing`, { maxBytes: 1024 }), /answered 404/);
  });

  test("an endless answer is refused at the cap, having read little more than it", async () => {
    const heapBefore = process.memoryUsage().arrayBuffers;
    await assert.rejects(fetchDocument(`${base}/endless`, { maxBytes: 1_000_000 }), /more than 1000000 bytes/);
    assert.ok(process.memoryUsage().arrayBuffers - heapBefore < 50_000_000, "the body was not buffered");
    const sentAtRefusal = endlessBytesSent;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(endlessBytesSent - sentAtRefusal < 5_000_000, "the request was cancelled, not drained");
  });
});
