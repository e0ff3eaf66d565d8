// Statements per request measured from outside the app: a TCP proxy
// between our server and PostgreSQL that reads the frontend half of the wire protocol and counts
// each statement the server has executed: a simple Query ('Q') or an extended-protocol Execute
// ('E'). Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE) is counted apart, from
// the text of the statement behind the Execute (Parse 'P' names it, Bind 'B' picks it).
// pg_stat_statements would do it in the server, but it needs shared_preload_libraries and a restart.
import net from "node:net";

const CONTROL = /^\s*(begin|start\s+transaction|commit|end|rollback|savepoint|release)\b/i;

/** Reads a NUL-terminated string at `at`; answers [text, next offset]. */
function cstring(buf, at) {
  const end = buf.indexOf(0, at);
  return [buf.toString("utf8", at, end), end + 1];
}

export async function startCountingProxy(target) {
  const counts = { statements: 0, control: 0 };
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    upstream.pipe(client);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
    const statementText = new Map(); // prepared statement name → text, per connection
    let portalText = "";
    let pending = Buffer.alloc(0);
    let started = false; // the startup message (and an SSLRequest) have no type byte
    client.on("data", (chunk) => {
      upstream.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (!started) {
          if (pending.length < 8) break;
          const len = pending.readInt32BE(0);
          if (pending.length < len) break;
          const code = pending.readInt32BE(4);
          pending = pending.subarray(len);
          if (code !== 80877103 && code !== 80877104) started = true; // not SSLRequest / GSSENCRequest
          continue;
        }
        if (pending.length < 5) break;
        const len = pending.readInt32BE(1);
        if (pending.length < len + 1) break;
        const type = String.fromCharCode(pending[0]);
        const body = pending.subarray(5, len + 1);
        if (type === "Q") {
          const [text] = cstring(body, 0);
          // One simple query may hold several statements; ours send one (postgres.js `begin`).
          counts.statements++;
          if (CONTROL.test(text)) counts.control++;
        } else if (type === "P") {
          const [name, at] = cstring(body, 0);
          statementText.set(name, cstring(body, at)[0]);
        } else if (type === "B") {
          const [, at] = cstring(body, 0);
          portalText = statementText.get(cstring(body, at)[0]) ?? "";
        } else if (type === "E") {
          counts.statements++;
          if (CONTROL.test(portalText)) counts.control++;
        }
        pending = pending.subarray(len + 1);
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    /** Statements executed so far, and how many of them were transaction control. */
    counts: () => ({ ...counts }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
