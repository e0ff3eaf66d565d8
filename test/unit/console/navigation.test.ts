/**
 * Every console page is reachable from the header. Each page under
 * app/console/(signed-in) without an id in its path is in a navigation group (or is Overview or
 * Approvals, which stand apart); before, Approvals, Claims, Refunds, Monitoring, Screening cases
 * and Month end had no link. A reviewer's groups hold no admin page, and every link is a page.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { HEADER_PAGES, NAVIGATION, navigationFor } from "@/lib/operations/console/navigation";

const SIGNED_IN = path.join(process.cwd(), "app/console/(signed-in)");

/** Every page's URL under the signed-in console: a directory holding page.tsx, route groups left out. */
function pages(dir = SIGNED_IN, url = "/console"): { url: string; file: string }[] {
  const found = readdirSync(dir).includes("page.tsx") ? [{ url, file: path.join(dir, "page.tsx") }] : [];
  for (const name of readdirSync(dir)) {
    const sub = path.join(dir, name);
    if (statSync(sub).isDirectory()) found.push(...pages(sub, `${url}/${name}`));
  }
  return found;
}

const linked = (links: { links: readonly (readonly [string, ...unknown[]])[] }[]) => links.flatMap((g) => g.links.map(([href]) => href));

test("every console page without an id in its path is in the header", () => {
  const reachable = new Set<string>([...HEADER_PAGES, ...linked(NAVIGATION)]);
  const standalone = pages().filter((p) => !p.url.includes("["));
  assert.ok(standalone.length >= 25, `found ${standalone.length} pages`);
  const missing = standalone.filter((p) => !reachable.has(p.url)).map((p) => p.url);
  assert.deepEqual(missing, [], "pages no header link reaches");
  for (const name of [
    "/console/approvals",
    "/console/claims",
    "/console/refunds",
    "/console/monitoring",
    "/console/screening-cases",
    "/console/ledger/month",
  ]) {
    assert.ok(reachable.has(name), name);
  }
});

test("every link is a page, once; a reviewer sees no admin page; the groups are Money, Compliance, Books, Partners, Settings", () => {
  const all = linked(NAVIGATION);
  const urls = new Set(pages().map((p) => p.url));
  for (const href of [...all, ...HEADER_PAGES]) assert.ok(urls.has(href), `${href} is a page`);
  assert.equal(new Set(all).size, all.length, "no page twice");
  assert.deepEqual(
    NAVIGATION.map((g) => g.label),
    ["Money", "Compliance", "Books", "Partners", "Settings"],
  );
  const adminOnly = NAVIGATION.flatMap((g) => g.links.filter(([, , role]) => role === "admin").map(([href]) => href));
  const reviewer = linked(navigationFor("reviewer"));
  assert.deepEqual(
    reviewer.filter((href) => adminOnly.includes(href)),
    [],
  );
  assert.deepEqual(linked(navigationFor("admin")), all);
  // A link's role is its page's: an admin page (requireOperator("admin")) is never offered to a reviewer.
  const files = new Map(pages().map((p) => [p.url, p.file]));
  for (const [href, , role] of NAVIGATION.flatMap((g) => g.links)) {
    const adminPage = readFileSync(files.get(href)!, "utf8").includes('requireOperator("admin")');
    assert.equal(role === "admin", adminPage, `${href}: ${role} link, ${adminPage ? "admin" : "reviewer"} page`);
  }
});
