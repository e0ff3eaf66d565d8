// The size of an answer's body per request for the per-call table, each measured by one
// request sent alone, outside the load, with the headers of the load that measured its row: the
// reads as wrk sends them (its -H headers and Host; wrk asks for no compression), the writes as
// the Node driver does (bench/lib/partner.ts caller: `accept-encoding: identity`).
import http from "node:http";

/**
 * How many items a JSON body lists: an array's length, or a page's (the API's lists answer
 * `{ items, nextCursor }`); undefined for any other body.
 */
export function itemsOf(text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(body)) return body.length;
  return Array.isArray(body?.items) ? body.items.length : undefined;
}

/**
 * One request with these headers and nothing else (node:http adds Host and, for a body, its
 * length): the body's bytes as they came over the wire (chunked framing removed, nothing decoded),
 * its status, its Content-Encoding ("" when none) and, unencoded, the items it lists (itemsOf).
 * @returns {Promise<{ bytes: number, status: number, encoding: string, items: number | undefined }>}
 */
export function bodyOf(url, { method = "GET", headers = {}, body: sent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const encoding = String(res.headers["content-encoding"] ?? "");
        resolve({ bytes: body.length, status: res.statusCode ?? 0, encoding, items: encoding ? undefined : itemsOf(body.toString("utf8")) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(sent);
  });
}

/**
 * Runs `work` (one call through fetch, e.g. a write of bench/lib/writes.ts) with fetch watched, and
 * answers its output with the body of the last answer it fetched: its bytes as fetch gives them
 * (decoded: the wire's bytes when `encoding` is "", which the writes' `accept-encoding: identity`
 * asks for) and its Content-Encoding. `output` is undefined when the work failed.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<{ output: T | undefined, bytes: number, encoding: string }>}
 */
export async function fetchedBody(work, scope = globalThis) {
  const original = scope.fetch;
  let last = { bytes: NaN, encoding: "" };
  scope.fetch = async (...args) => {
    const res = await original(...args);
    const body = await res.clone().arrayBuffer();
    last = { bytes: body.byteLength, encoding: res.headers.get("content-encoding") ?? "" };
    return res;
  };
  try {
    const output = await work().catch(() => undefined);
    return { output, ...last };
  } finally {
    scope.fetch = original;
  }
}
