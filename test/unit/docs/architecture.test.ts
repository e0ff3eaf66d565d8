/**
 * docs/architecture.md names every context of lib/ and every folder inside one in "Where things live": a
 * folder added without a place in that map fails here, so the map cannot drift from the tree.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const root = process.cwd();
const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
const map = doc.slice(doc.indexOf("## Where things live"), doc.indexOf("\n## ", doc.indexOf("## Where things live") + 1));

test("the architecture's map has a 'Where things live' section", () => {
  assert.ok(map.length > 200, "docs/architecture.md: no 'Where things live' section");
});

test("every context of lib/ and every folder inside one is named in the map, and the map names no folder that is gone", () => {
  const contexts = readdirSync(path.join(root, "lib"), { withFileTypes: true });
  const strays = contexts.filter((e) => e.isFile()).map((e) => `lib/${e.name}`);
  assert.deepEqual(strays, [], `files directly in lib/ belong in a context: ${strays.join(", ")}`);
  const folders = contexts
    .filter((e) => e.isDirectory())
    .flatMap((context) => [
      `lib/${context.name}/`,
      ...readdirSync(path.join(root, "lib", context.name), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => `lib/${context.name}/${e.name}/`),
    ]);
  const missing = folders.filter((name) => !map.includes(`\`${name}\``));
  assert.deepEqual(missing, [], `not named in docs/architecture.md "Where things live": ${missing.join(", ")}`);
  const named = [...map.matchAll(/`(lib\/[a-z0-9-]+\/(?:[a-z0-9-]+\/)?)`/g)].map((m) => m[1]);
  const gone = named.filter((name) => !folders.includes(name));
  assert.deepEqual(gone, [], `named but not in lib/: ${gone.join(", ")}`);
});
