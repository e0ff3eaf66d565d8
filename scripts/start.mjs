#!/usr/bin/env node
// npm start: serves the production build, building first when there is none or the sources are newer.
// Arguments are Node options for the server process (`npm start -- --cpu-prof`): V8 refuses most
// of them in NODE_OPTIONS. The benchmark starts its server through this script (bench/server.mjs).
import { spawnSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { buildIsStale } from "./build-stale.mjs";
import { serverEnv, serverNodeArgs } from "./server-node-args.mjs";

const root = path.resolve(import.meta.dirname, "..");
const nodeOptions = process.argv.slice(2);

// The configuration first: a refused one prints one line per problem and exits 78
// within seconds, before a build of minutes. Without tsx (a --omit=dev install) the server's own
// start-up check (instrumentation.ts) still refuses it, after the build.
if (existsSync(path.join(root, "node_modules/tsx"))) {
  const check = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/check-config.ts")], { cwd: root, stdio: "inherit" });
  if (check.status !== 0) process.exit(check.status ?? 1);
}

if (buildIsStale(root)) {
  console.log("[start] building the production bundle (next build)...");
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT ?? "3000";
const server = spawn(
  process.execPath,
  [...serverNodeArgs(process.env), ...nodeOptions, path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port],
  {
    cwd: root,
    env: { ...serverEnv(process.env), ...process.env },
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
