/**
 * bench/lib/bare-app.mjs and ports.mjs: the bare app's database is dropped when the app
 * does not start, and the bench's servers take free ports unless BENCH_PORT / BENCH_BARE_PORT pin them.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, it } from "node:test";
// @ts-expect-error: plain ESM helpers
import { startBareApp } from "../../../bench/lib/bare-app.mjs";
// @ts-expect-error: plain ESM helpers
import { freePort, portsFrom } from "../../../bench/lib/ports.mjs";

/** A postgres.js stand-in: every statement any of its clients runs, and the clients ended. */
function fakePostgres() {
  const statements: string[] = [];
  let ended = 0;
  const postgres = () => ({
    unsafe: async (text: string) => {
      statements.push(text.trim().split(/\s+/).slice(0, 3).join(" "));
      return [];
    },
    end: async () => {
      ended++;
    },
  });
  return { postgres, statements, ended: () => ended };
}

describe("the bare app", () => {
  it("drops its database when the app does not start", async () => {
    const db = fakePostgres();
    // A `next start` that exits at once (its port taken, say).
    const start = () => ({ exitCode: 1, pid: 1, kill: () => true, once: () => undefined });
    await assert.rejects(
      startBareApp(
        "postgres://postgres@127.0.0.1:5432/postgres",
        { port: 1 },
        { build: () => {}, postgres: db.postgres, start, get: () => Promise.reject(new Error("refused")) },
      ),
      /the bare app did not start on port 1/,
    );
    assert.deepEqual(
      db.statements.map((s) => s.replace(/remit_bench_bare_\d+/, "NAME")),
      ["create database NAME", "create table bare_rows", "drop database if"],
    );
    assert.equal(db.ended(), 2);
  });

  it("drops its database when its tables cannot be made", async () => {
    const db = fakePostgres();
    const failing = () => {
      const client = db.postgres();
      return {
        ...client,
        unsafe: async (text: string) => {
          if (text.includes("create table")) throw new Error("permission denied");
          return client.unsafe(text);
        },
      };
    };
    const start = () => assert.fail("not started without its tables");
    await assert.rejects(
      startBareApp("postgres://postgres@127.0.0.1:5432/postgres", { port: 1 }, { build: () => {}, postgres: failing, start }),
      /permission denied/,
    );
    assert.deepEqual(
      db.statements.map((s) => s.replace(/remit_bench_bare_\d+/, "NAME")),
      ["create database NAME", "drop database if"],
    );
  });
});

describe("the bench's ports", () => {
  it("pinned: from the given port on, step apart", async () => {
    const next = portsFrom("4601", 3);
    assert.deepEqual([await next(), await next(), await next()], [4601, 4604, 4607]);
  });

  it("unset: a port free now each time, never one a server holds", async () => {
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
    const taken = (held.address() as { port: number }).port;
    try {
      const next = portsFrom(undefined);
      const ports = [await next(), await next(), await freePort()];
      for (const port of ports) {
        assert.notEqual(port, taken);
        // Free: a server can listen on it.
        const probe = createServer();
        await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(port, "127.0.0.1", resolve));
        await new Promise((resolve) => probe.close(resolve));
      }
    } finally {
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
