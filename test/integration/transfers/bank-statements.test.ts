/**
 * Over HTTP: the customer chooses bank transfer (sandbox endpoint: RF
 * reference, exact amount, collection account), a camt.053 statement built here (validated against
 * the shipped XSD in the test) funds the transfer, importing it again changes nothing, and an
 * unmatched and an over-paid credit (uploaded in the console) wait in the "Bank credits" queue
 * where an operator returns one and matches the other (its excess then returned), through the
 * console's own form actions. Ledger postings are read from the server's database on PostgreSQL
 * (test/unit/db/bank-credits.test.ts checks them on both drivers).
 */
import { randomUUID } from "node:crypto";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { eq, like } from "drizzle-orm";
import { creditorReference } from "@/lib/payments/reconciliation/creditor-reference";
import { schemaProblems } from "@/lib/payments/reconciliation/xsd";
import { camt053, type TestCredit } from "../../support/camt053";
import { BASE_URL, assertError, awaitTransfer, call, readTransfer } from "../support";
import { consoleCookie } from "../support/console";
import { withServerDatabase } from "../support/database";
import { fundingScenario } from "./support";

const uniq = () => randomUUID().slice(0, 8).toUpperCase();

async function statement(credits: TestCredit[]): Promise<string> {
  const xml = camt053(credits, { messageId: `STMT-${uniq()}` });
  assert.deepEqual(await schemaProblems(xml, "camt.053.001.08"), [], "the test's statement is XSD-valid");
  return xml;
}

function postStatement(xml: string, contentType = "application/xml") {
  return call("POST", "/v1/sandbox/bank-statements", { rawBody: xml, headers: { "content-type": contentType } });
}

async function chooseBankTransfer(s: Awaited<ReturnType<typeof fundingScenario>>) {
  const res = await call("POST", `/v1/sandbox/funding-sessions/${s.confirmed.fundingSession.fundingSessionId}/bank-transfer`, { token: s.c.token });
  assert.equal(res.status, 200, res.text);
  return res.body as { reference: string; amount: string; currency: string; collectionAccount: { iban: string; bic: string; name: string } };
}

/** The console page's form that contains `marker`, with its server action's hidden field (the no-script submission). */
async function consoleForm(cookie: string, marker: string, action: string) {
  // React separates adjacent text nodes with empty comments: read the text as a person sees it.
  const html = (await (await fetch(`${BASE_URL}/console/bank-credits`, { headers: { cookie } })).text()).replace(/<!-- -->/g, "");
  const forms = [...html.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]);
  const sections = html.split("<section").filter((s) => s.includes(marker));
  const form = forms.find((f) => sections.some((s) => s.includes(f)) && f.includes(action));
  assert.ok(form, `a "${action}" form for ${marker} on the Bank credits page`);
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const hidden = [...form.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((tag) => /type="hidden"/.test(tag));
  return Object.fromEntries(hidden.map((tag) => [attr(tag, "name")!, attr(tag, "value") ?? ""]));
}

/** Submits a console form as a browser without script would; answers the redirect's notice or error. */
async function submitForm(cookie: string, fields: Record<string, string | Blob>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  const res = await fetch(`${BASE_URL}/console/bank-credits`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { cookie, origin: new URL(BASE_URL).origin },
  });
  assert.ok([303, 307, 302].includes(res.status), `redirected after the action: ${res.status} ${await res.text().catch(() => "")}`);
  const location = new URL(res.headers.get("location")!, BASE_URL);
  return { notice: location.searchParams.get("notice"), error: location.searchParams.get("error") };
}

async function queuePage(cookie: string) {
  return (await fetch(`${BASE_URL}/console/bank-credits`, { headers: { cookie } })).text();
}

describe("bank transfer funding from camt.053 statements (sandbox endpoints and console)", () => {
  let cookie = "";
  before(async () => {
    cookie = await consoleCookie();
  });

  test("a statement credit with the session's RF reference funds the transfer; the same file again changes nothing", async () => {
    const s = await fundingScenario();
    const bt = await chooseBankTransfer(s);
    assert.match(bt.reference, /^RF\d{20}$/);
    assert.match(bt.amount, /^\d+\.\d{2}$/, "USD in minor units");
    assert.equal(bt.currency, s.confirmed.originCurrency ?? "USD");
    assert.deepEqual(Object.keys(bt.collectionAccount).sort(), ["bic", "iban", "name"]);
    assert.equal((await chooseBankTransfer(s)).reference, bt.reference, "one reference per session");
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funding", "still in funding until the money arrives");

    const bankRef = `E2E-${uniq()}`;
    const xml = await statement([
      { bankReference: bankRef, amount: bt.amount, currency: bt.currency, reference: bt.reference },
      { bankReference: `DBIT-${uniq()}`, amount: "1.00", currency: "USD", debit: true },
    ]);
    const first = await postStatement(xml);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { entries: 1, matched: 1, unmatched: 0, duplicates: 0 });
    const funded = await awaitTransfer(s.c, s.transferId, "funded", (t) => t.stateHistory.some((h: { state: string }) => h.state === "funded"));
    const history = funded.stateHistory.length;

    const again = await postStatement(xml);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, { entries: 1, matched: 0, unmatched: 0, duplicates: 1 });
    const after = (await readTransfer(s.c, s.transferId)).body;
    assert.ok(after.stateHistory.length >= history && !after.stateHistory.slice(history).some((h: { state: string }) => h.state === "funded"));

    await withServerDatabase(async (db) => {
      const { journalEntries, transfers } = await import("@/db/schema");
      const { transferEntries } = await import("@/lib/finance/ledger");
      const [row] = await db.select({ fundedFrom: transfers.fundedFrom }).from(transfers).where(eq(transfers.id, s.transferId));
      assert.equal(row.fundedFrom, "suspense:unallocated");
      const received = await db
        .select()
        .from(journalEntries)
        .where(like(journalEntries.sourceKey, `bank-credit:%${bankRef}`));
      assert.equal(received.length, 1, "the credit is posted once, even imported twice");
      const entries = await transferEntries(db, s.transferId);
      for (const e of entries) {
        const sum = e.lines.reduce((acc, l) => acc + l.debit - l.credit, 0n);
        assert.equal(sum, 0n, `entry ${e.kind} balances`);
      }
    });
  });

  test("unmatched and over-paid credits (console upload) wait in the queue; the operator returns one and matches the other", async () => {
    const s = await fundingScenario();
    const bt = await chooseBankTransfer(s);
    const strayRef = `STRAY-${uniq()}`;
    const overRef = `OVER-${uniq()}`;
    const overAmount = (Number(bt.amount) + 5).toFixed(2);
    const xml = await statement([
      { bankReference: strayRef, amount: "12.34", currency: "USD", reference: creditorReference(String(Date.now())) },
      { bankReference: overRef, amount: overAmount, currency: bt.currency, text: `Transfer ${bt.reference.replace(/(.{4})/g, "$1 ")}` },
    ]);

    // The console's upload form: the same import as the sandbox endpoint.
    const upload = await consoleForm(cookie, "Import a statement", "statement");
    const uploaded = await submitForm(cookie, { ...upload, statement: new File([xml], "statement.xml", { type: "application/xml" }) });
    assert.match(uploaded.notice ?? "", /2 credits, 0 matched, 2 to the queue, 0 already imported/, JSON.stringify(uploaded));
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funding", "an over-payment does not fund by itself");

    const page = await queuePage(cookie);
    assert.ok(page.includes(strayRef) && page.includes(overRef), "both credits are in the queue");
    assert.match(page, /No funding session has this reference/);
    assert.match(page, /More than the sum due/);

    const stray = await consoleForm(cookie, strayRef, "Return");
    const returned = await submitForm(cookie, { ...stray, reason: "Unknown payer, sent back" });
    assert.match(returned.notice ?? "", /12\.34 USD to return/, JSON.stringify(returned));

    const over = await consoleForm(cookie, overRef, "Match");
    const matched = await submitForm(cookie, { ...over, transferId: s.transferId, reason: "Customer paid a little more" });
    assert.match(matched.notice ?? "", new RegExp(`funded transfer ${s.transferId}`), JSON.stringify(matched));
    assert.match(matched.notice ?? "", /5\.00 USD over-paid stays to return/);
    await awaitTransfer(s.c, s.transferId, "funded", (t) => t.stateHistory.some((h: { state: string }) => h.state === "funded"));

    const excess = await consoleForm(cookie, overRef, "Return 5.00 USD");
    const sentBack = await submitForm(cookie, { ...excess, reason: "Return the excess" });
    assert.match(sentBack.notice ?? "", /5\.00 USD to return/, JSON.stringify(sentBack));
    // A return is listed until the bank has executed it, then recorded with its reference.
    const listed = await queuePage(cookie);
    assert.ok(listed.includes(strayRef) && listed.includes(overRef), "requested returns stay listed");
    for (const [r, amount] of [
      [strayRef, "12.34 USD"],
      [overRef, "5.00 USD"],
    ]) {
      const form = await consoleForm(cookie, r, `Record ${amount} returned`);
      const done = await submitForm(cookie, { ...form, bankReference: `RET-${r}`, reason: "Sent from the bank" });
      assert.match(done.notice ?? "", new RegExp(`returned \\(bank reference RET-${r}\\)`), JSON.stringify(done));
    }
    const finalPage = await queuePage(cookie);
    assert.ok(!finalPage.includes(strayRef) && !finalPage.includes(overRef), "both resolved");

    // Audit-logged, like every console action.
    for (const [action, target] of [
      ["bankCredit.match", over.creditId],
      ["bankCredit.return", stray.creditId],
      ["bankCredit.return", over.creditId],
      ["bankCredit.returnExecuted", stray.creditId],
    ]) {
      const audit = await (await fetch(`${BASE_URL}/console/audit?action=${action}&q=${target}`, { headers: { cookie } })).text();
      assert.ok(!audit.includes("No audit entries match."), `an audit entry ${action} for ${target}`);
    }
  });

  test("not a camt.053: 400 validation.bodyMalformed with the schema's problems; not XML: 415", async () => {
    const bad = await postStatement('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt/></Document>');
    const error = assertError(bad, 400, "validation.bodyMalformed");
    assert.ok(Array.isArray(error.details.problems) && error.details.problems.length > 0, bad.text);
    assertError(await postStatement("not xml at all"), 400, "validation.bodyMalformed");
    assertError(await postStatement("{}", "application/json"), 415, "validation.contentTypeUnsupported");
    const noKey = await call("POST", "/v1/sandbox/bank-statements", { key: null, rawBody: "<x/>", headers: { "content-type": "application/xml" } });
    assert.equal(noKey.status, 401, noKey.text);
  });

  test("a statement of another account (the payout bank's) is refused whole with a clear reason; a batch booking funds each transfer by its own reference (issue 20 item 8)", async () => {
    const a = await fundingScenario();
    const b = await fundingScenario();
    const [ia, ib] = [await chooseBankTransfer(a), await chooseBankTransfer(b)];
    const bank = `BATCH-${uniq()}`;
    const credits: TestCredit[] = [
      {
        bankReference: bank,
        amount: "205.98",
        currency: "USD",
        batch: [
          { amount: ia.amount, reference: ia.reference },
          { amount: ib.amount, reference: ib.reference },
        ],
      },
    ];
    assert.equal(ia.amount, "102.99");
    const other = camt053(credits, { messageId: `STMT-${uniq()}`, iban: "GB33BUKB20201555555555" });
    const refused = assertError(await postStatement(other), 400, "validation.fieldInvalid");
    assert.match(refused.message, /The statement is of account GB\*\*\*\*5555, not the collection account DE\*\*\*\*3000/);
    assert.deepEqual(
      refused.details.issues.map((i: { field: string }) => i.field),
      ["Stmt.Acct.Id"],
    );
    assert.equal((await readTransfer(a.c, a.transferId)).body.transferStatus, "funding", "nothing imported");

    const imported = await postStatement(await statement(credits));
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.body, { entries: 2, matched: 2, unmatched: 0, duplicates: 0 });
    for (const s of [a, b]) assert.notEqual((await readTransfer(s.c, s.transferId)).body.transferStatus, "funding");
  });

  test("both endpoints are in the OpenAPI document, the statement one with an application/xml body", async () => {
    const doc = (await call("GET", "/v1/openapi.json", { key: null })).body;
    const statements = doc.paths["/v1/sandbox/bank-statements"].post;
    assert.ok(statements.requestBody.content["application/xml"]);
    assert.ok(doc.paths["/v1/sandbox/funding-sessions/{fundingSessionId}/bank-transfer"].post);
  });
});
