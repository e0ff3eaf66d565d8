// Whether the production build (.next) is missing or older than the sources it is built from:
// npm start builds first then, and the benchmark too (bench/server.mjs), so neither serves old code.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** @param {string} root the checkout */
export function buildIsStale(root) {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return ["app", "lib", "components", "db"].some((d) => existsSync(path.join(root, d)) && newestSource(path.join(root, d)) > built);
}
