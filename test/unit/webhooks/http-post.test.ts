import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { postWebhook } from "@/lib/partners/webhooks/http-post";

// A webhook response body is read up to a cap and the rest cancelled.

let server: Server;
let url: string;
let written = 0;
let closed: Promise<void>;

before(async () => {
  server = createServer((req, res) => {
    req.resume();
    let markClosed!: () => void;
    closed = new Promise((r) => (markClosed = r));
    res.on("close", markClosed);
    // An endless body: only the client hanging up ends it.
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const chunk = Buffer.alloc(16 * 1024, "y");
    const pump = () => {
      while (!res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("postWebhook", () => {
  it("reads at most the cap (give or take one chunk) of an endless body, then cancels it", async () => {
    const res = await postWebhook(url, { headers: {}, body: "{}", allowPrivate: true, timeoutMs: 10_000, maxBodyBytes: 4096 });
    assert.equal(res.status, 200);
    assert.ok(res.bytesRead >= 4096 && res.bytesRead <= 4096 + 64 * 1024, `read ${res.bytesRead} bytes`);
    await closed;
    assert.ok(written < 16 * 1024 * 1024, `the server could push only ${written} bytes before the connection closed`);
  });
});
