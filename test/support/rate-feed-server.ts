import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const FIXTURES = path.join(import.meta.dirname, "../fixtures/reference-rates");

/** A reference-rate fixture file's text, with its publication date replaced when asked. */
export function rateFixture(name: string, date?: string): string {
  const text = readFileSync(path.join(FIXTURES, name), "utf8");
  return date ? text.replace(/time='\d{4}-\d{2}-\d{2}'/, `time='${date}'`) : text;
}

/**
 * A loopback HTTP server standing in for the rate feeds: each path answers what the test last set
 * (a body, or a status such as 503 for "unreachable").
 */
export async function startRateFeedServer() {
  const answers = new Map<string, { status: number; body: string; type: string }>();
  const server: Server = createServer((req, res) => {
    const answer = answers.get(req.url ?? "") ?? { status: 404, body: "not found", type: "text/plain" };
    res.writeHead(answer.status, { "content-type": answer.type }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (p: string) => base + p,
    serve(p: string, body: string, type = p.endsWith(".json") ? "application/json" : "application/xml") {
      answers.set(p, { status: 200, body, type });
    },
    fail(p: string, status = 503) {
      answers.set(p, { status, body: "unavailable", type: "text/plain" });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
