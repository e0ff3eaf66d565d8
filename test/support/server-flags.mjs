/**
 * `next start` flags every test server shares. The server keeps an idle connection open longer
 * (65 s) than the test's fetch client does (undici: 4 s), so the client always closes first: with
 * Node's default 5 s, a loaded machine let the server close a kept-alive socket just as the client
 * reused it, and a request failed with "fetch failed" (ECONNRESET) before reaching the app.
 */
export const SERVER_KEEP_ALIVE_MS = 65_000;
