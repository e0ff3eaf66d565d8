#!/usr/bin/env node
/**
 * npm test: the whole suite.
 *  1. unit tests (pure modules, and database-level tests on PGlite; on PostgreSQL too when
 *     TEST_DATABASE_URL is set);
 *  2. a production build;
 *  3. HTTP integration tests against the real app, once on a fresh PGlite directory and, when
 *     TEST_DATABASE_URL is set, once on a fresh PostgreSQL database.
 * Prints "N passed, N failed" at the end and exits non-zero on any failure.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const only = process.argv[2]; // optional: "unit" or "integration"
const totals = { passed: 0, failed: 0 };

function testFiles(dir) {
  const abs = path.join(root, dir);
  return readdirSync(abs, { recursive: true })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f))
    .sort();
}

function runNodeTests(label, files, env) {
  console.log(`\n=== ${label}: ${files.length} files`);
  const tap = path.join(mkdtempSync(path.join(tmpdir(), "remit-tap-")), "out.tap");
  const res = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", "--test-concurrency=1", "--test-reporter=spec", "--test-reporter-destination=stdout", "--test-reporter=tap", `--test-reporter-destination=${tap}`, ...files],
    { cwd: root, stdio: "inherit", env: { ...process.env, ...env } },
  );
  const text = readFileSync(tap, "utf8");
  const passed = Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
  const failed = Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0) + (res.status !== 0 && !/^# fail [1-9]/m.test(text) ? 1 : 0);
  totals.passed += passed;
  totals.failed += failed;
  console.log(`=== ${label}: ${passed} passed, ${failed} failed`);
}

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function withServer(label, env, fn) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "warn", SANDBOX_CLOCK_CONTROL: "true", PUBLIC_BASE_URL: baseUrl, ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (let i = 0; i < 120; i++) {
      const ok = await fetch(`${baseUrl}/v1/auth/health`, { headers: { "ocp-apim-subscription-key": "sandbox-demo-key" } })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (i === 119) throw new Error(`${label}: server did not become ready`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await fn(baseUrl);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
}

async function withFreshPostgres(fn) {
  const { default: postgres } = await import("postgres");
  const admin = postgres(process.env.TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  const name = `remit_test_${process.pid}_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    await fn(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}

async function main() {
  if (!only || only === "unit") {
    runNodeTests("unit (PGlite)", testFiles("test/unit"), {});
    if (process.env.TEST_DATABASE_URL) {
      await withFreshPostgres(async (url) => runNodeTests("database unit tests (PostgreSQL)", testFiles("test/unit/db"), { TEST_DB_URL: url }));
    }
  }
  if (!only || only === "integration") {
    console.log("\n=== production build");
    const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) {
      totals.failed += 1;
      throw new Error("next build failed");
    }
    const files = testFiles("test/integration");
    const dir = mkdtempSync(path.join(tmpdir(), "remit-pglite-"));
    try {
      await withServer("PGlite", { PGLITE_DIR: dir }, (baseUrl) => runNodeTests("integration (PGlite)", files, { TEST_BASE_URL: baseUrl, TEST_DRIVER: "pglite" }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (process.env.TEST_DATABASE_URL) {
      await withFreshPostgres((url) =>
        withServer("PostgreSQL", { DATABASE_URL: url }, (baseUrl) =>
          runNodeTests("integration (PostgreSQL)", files, { TEST_BASE_URL: baseUrl, TEST_DRIVER: "postgres", TEST_DB_URL: url }),
        ),
      );
    } else {
      console.log("\n(TEST_DATABASE_URL not set: PostgreSQL runs skipped)");
    }
  }
}

main()
  .catch((err) => {
    console.error(err);
    totals.failed += totals.failed === 0 ? 1 : 0;
  })
  .finally(() => {
    console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
    process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
  });
