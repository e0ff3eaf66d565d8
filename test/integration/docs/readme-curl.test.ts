/**
 * The README's curl walk-through runs as written: the block is taken from
 * README.md, pointed at the test server and run by `sh` with a PATH holding only what a stock
 * Debian with the service has (sh, curl, node, cat, cut): no uuidgen, no jq.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { BASE_URL } from "../support";

const which = (cmd: string) => execFileSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).trim();

test("the curl walk-through of the README runs in sh without uuidgen and every call answers", () => {
  const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Try it with curl"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  assert.ok(block?.includes("B=http://localhost:3000"), "the walk-through block");
  const script = block.replace("B=http://localhost:3000", `B=${BASE_URL}`);

  const bin = mkdtempSync(path.join(tmpdir(), "readme-bin-"));
  try {
    for (const cmd of ["sh", "curl", "cat", "cut"]) symlinkSync(which(cmd), path.join(bin, cmd));
    symlinkSync(process.execPath, path.join(bin, "node"));
    const run = spawnSync(path.join(bin, "sh"), ["-eu", "-c", script], {
      env: { NODE_ENV: "test", PATH: bin, HOME: tmpdir() },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(run.status, 0, `${run.stderr}\n${run.stdout}`);
    const out = run.stdout;
    assert.doesNotMatch(out, /"error":\{/, out);
    assert.doesNotMatch(out, /undefined/, out);
    assert.match(out, /"status":"ok"/);
    assert.match(out, /"webviewUrl":"http/);
    assert.match(out, /"firstName":"Ada"/);
    assert.match(out, /"items":\[/);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});
