#!/usr/bin/env node
// npm run bench: runs the benchmarks against a production build and writes docs/performance.md.
// A measurement, not a test: run it on a quiet machine. BENCH_DATABASE_URL (or TEST_DATABASE_URL)
// points at a PostgreSQL server where a fresh database is created for each run.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";
import { benchAuth } from "./auth.mjs";

const root = path.resolve(import.meta.dirname, "..");
const auth = await benchAuth();
const journey = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "bench/journey.ts")], { cwd: root, encoding: "utf8", env: process.env });
if (journey.status !== 0) {
  console.error(journey.stderr);
  process.exit(1);
}
const screening = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "bench/screening.ts")], { cwd: root, encoding: "utf8", env: process.env });
if (screening.status !== 0) {
  console.error(screening.stderr);
  process.exit(1);
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${execFileSync("uname", ["-sr"], { encoding: "utf8" }).trim()}`;
const doc = `# Performance

Measured by \`npm run bench\` (bench/run.mjs) against a production build (\`next start\`), load
generated from the same machine (so client and server share the CPU). Figures are from one run on
${new Date().toISOString().slice(0, 10)}; rerun to compare.

Machine: ${machine}.

## Auth API

${auth}

## Transfer journey

${journey.stdout.trim()}

## Sanctions screening

${screening.stdout.trim()}
`;
writeFileSync(path.join(root, "docs/performance.md"), doc);
console.log(doc);
