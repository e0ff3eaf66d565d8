/**
 * The accountants' CSV export with a range. A range was a 500 on PostgreSQL (a
 * Date in a raw SQL template) and a bad value was silently ignored: now a range answers the lines
 * within it on either database, and a bad value is a 400 page naming the parameter.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL } from "../support";
import { consoleCookie } from "../support/console";

const exportOf = async (query: string, cookie: string) => fetch(`${BASE_URL}/console/ledger/export${query}`, { headers: { cookie } });

test("?from=&to= export the lines in the range; an invalid value is a 400 page saying which", async () => {
  const cookie = await consoleCookie();
  const all = await exportOf("", cookie);
  assert.equal(all.status, 200);
  const ranged = await exportOf("?from=2000-01-01&to=2999-01-01T00:00:00Z", cookie);
  assert.equal(ranged.status, 200, await ranged.clone().text());
  assert.match(ranged.headers.get("content-type") ?? "", /^text\/csv/);
  assert.equal(await ranged.text(), await all.text(), "every line falls in the range");
  const empty = await exportOf("?from=2999-01-01", cookie);
  assert.equal(
    (await empty.text()).trim(),
    "JournalNumber,Date,AccountCode,Debit,Credit,Currency,Description,BankReference,Transfer,Customer,Partner,Kind,PostedAt",
  );
  // A month: the same lines as its from/to.
  const month = await exportOf("?period=2999-01", cookie);
  assert.equal(month.status, 200);
  assert.equal((await month.text()).trim().split("\r\n").length, 1, "nothing dated in 2999");
  for (const [query, name] of [
    ["?from=yesterday", "from"],
    ["?to=2026-02-30", "to"],
    ["?from=2026-03-02&to=2026-03-01", "to"],
    ["?period=2026-13", "period"],
    ["?period=october", "period"],
    ["?period=2026-10&from=2026-10-01", "period"],
  ]) {
    const res = await exportOf(query, cookie);
    assert.equal(res.status, 400, query);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    const html = await res.text();
    assert.match(html, /<h1>Bad request<\/h1>/);
    assert.match(html, new RegExp(`<p>${name}`), `${query}: ${html}`);
  }
});
