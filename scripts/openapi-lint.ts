/**
 * Lints the generated OpenAPI document with Redocly's recommended rules (redocly.yaml): writes
 * it to a temporary file, runs `redocly lint`, and fails on any error or warning.
 * Run by `node scripts/test.mjs lint` (npm test).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/interface/api/openapi";

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location?: { pointer?: string }[];
}

const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "remit-openapi-"));
try {
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(buildOpenApiDocument("http://localhost:3000"), null, 2));
  let out: string;
  try {
    out = execFileSync(path.join(root, "node_modules", ".bin", "redocly"), ["lint", file, "--config", path.join(root, "redocly.yaml"), "--format=json"], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    });
  } catch (err) {
    // Exit code 1 means problems were found: the JSON report is still on stdout.
    out = String((err as { stdout?: string }).stdout ?? "");
    if (!out.trim().startsWith("{")) throw err;
  }
  const problems = (JSON.parse(out) as { problems: Problem[] }).problems;
  for (const p of problems) console.log(`${p.severity} ${p.ruleId}: ${p.message} at ${(p.location ?? []).map((l) => l.pointer).join(", ")}`);
  console.log(`redocly lint (recommended): ${problems.length} problem(s)`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
