/**
 * The README works from a clone: every relative link in README.md and docs/
 * names a file the repository tracks (no ../shared/...), the curl walk-through needs no uuidgen,
 * and the client journey shown is the one that type-checks (packages/client/examples/journey.ts).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";

const ROOT = process.cwd();
const tracked = new Set(execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean));
const docs = [...tracked].filter((f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md")));
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** Markdown link targets outside code spans and fenced blocks: [text](target). */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe("README and docs in a clone", () => {
  it("every relative link resolves to a tracked file inside the repository", () => {
    assert.ok(docs.includes("README.md"));
    const broken: string[] = [];
    for (const file of docs) {
      for (const link of linksOf(readFileSync(path.join(ROOT, file), "utf8"))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("#")) continue;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), link.split("#")[0]!));
        const inside = !target.startsWith("../") && !path.posix.isAbsolute(target);
        const exists = tracked.has(target) || [...tracked].some((f) => f.startsWith(`${target.replace(/\/$/, "")}/`));
        if (!inside || !exists) broken.push(`${file}: ${link}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("names nothing outside the clone and no uuidgen (not on a stock Debian)", () => {
    for (const file of docs) assert.doesNotMatch(readFileSync(path.join(ROOT, file), "utf8"), /\.\.\/shared\//, file);
    assert.doesNotMatch(readme, /uuidgen\)/);
    assert.match(readme, /cat \/proc\/sys\/kernel\/random\/uuid/);
  });

  it("the client journey shown is packages/client/examples/journey.ts, which the typecheck covers", () => {
    const example = readFileSync(path.join(ROOT, "packages/client/examples/journey.ts"), "utf8");
    const marked = example.slice(example.indexOf("// --- README journey ---\n") + 26, example.indexOf("  // --- end ---"));
    const lines = marked.split("\n").filter(Boolean);
    assert.ok(lines.length >= 10, "the journey has its ten lines");
    const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("## The typed client")))?.[1] ?? "";
    assert.ok(block.includes(lines.map((l) => l.replace(/^ {2}/, "")).join("\n")), "README's journey differs from packages/client/examples/journey.ts");
  });
});
