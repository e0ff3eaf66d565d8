/**
 * The file rails for payouts through the sandbox endpoints: funded transfers go
 * into a pain.001 (valid against the shipped XSD, EndToEndId = transferId) and move to topay; a
 * pain.002 moves one to paid and one to rejected with its refund; the same report twice changes
 * nothing; documents that are not pain.002 are 400 in the envelope.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pain001SchemaErrors, pain002 } from "../../support/iso20022";
import { assertError, BASE_URL, call, readTransfer, reasons, type CallResult } from "../support";
import { consoleCookie } from "../support/console";
import { withServerDatabase } from "../support/database";
import { fundedScenario } from "./support";

const xmlPost = (path: string, xml?: string, contentType = "application/xml"): Promise<CallResult> =>
  call("POST", path, xml === undefined ? {} : { rawBody: xml, headers: { "content-type": contentType } });

describe("sandbox payout files (pain.001) and payment status reports (pain.002)", () => {
  test("generate, then settle one and reject the other; the same report again changes nothing", async () => {
    const paid = await fundedScenario();
    const rejected = await fundedScenario();

    const res = await xmlPost("/v1/sandbox/payout-files");
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get("content-type") ?? "", /^application\/xml/);
    assert.deepEqual(await pain001SchemaErrors(res.text), []);
    for (const s of [paid, rejected]) {
      assert.match(res.text, new RegExp(`<EndToEndId>${s.transferId}</EndToEndId>`));
      assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "topay");
    }
    const messageId = /<MsgId>([^<]+)<\/MsgId>/.exec(res.text)![1];

    // Nothing left to put in a file.
    assertError(await xmlPost("/v1/sandbox/payout-files"), 409, "transfer.stateInvalid");

    const report = pain002(`REP-${messageId}`, messageId, [
      { endToEndId: paid.transferId, status: "ACSC" },
      { endToEndId: rejected.transferId, status: "RJCT", reason: "MS03" },
    ]);
    const imported = await xmlPost("/v1/sandbox/payment-status-reports", report);
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.body, { transactions: 2, applied: 2, unmatched: 0, duplicates: 0, unmatchedLines: [] });

    const p = (await readTransfer(paid.c, paid.transferId)).body;
    assert.equal(p.transferStatus, "paid");
    assert.equal(reasons(p).at(-1), "TRF_PAID");
    const r = (await readTransfer(rejected.c, rejected.transferId)).body;
    assert.equal(r.transferStatus, "rejected");
    assert.deepEqual(reasons(r).slice(-2), ["TRF_NETWORK_TO_PAY", "TRF_PAYOUT_REJECTED"]);
    assert.ok(r.refund, "the refund started");
    // Why, in the detail, its webhook event and on the console's transfer page.
    // A reason no new destination fixes: rejected and refunded at once (an account's reason waits for a repair).
    const why = { code: "PAYOUT_REFUSED_BY_BANK", isoReasonCode: "MS03", description: "Refused by the bank (reason not given)" };
    assert.deepEqual(r.rejectionReason, why);
    assert.equal("rejectionReason" in p, false);
    const events = (await call("GET", "/v1/core/events?limit=200", { token: rejected.c.token })).body.items as { data: Record<string, unknown> }[];
    const event = events.find((e) => e.data.transferId === rejected.transferId && e.data.state === "rejected");
    assert.deepEqual(event?.data.rejectionReason, why, JSON.stringify(events.at(-1)));
    const page = await fetch(`${BASE_URL}/console/transfers/${rejected.transferId}`, { headers: { cookie: await consoleCookie() } });
    assert.match((await page.text()).replace(/<!-- -->/g, ""), /payout rejected by the bank: Refused by the bank \(reason not given\) \(MS03\)/);
    const stored = await withServerDatabase(async (db) => {
      const { eq } = await import("drizzle-orm");
      const { transfers } = await import("@/db/schema");
      const [row] = await db.select({ reason: transfers.rejectionReason }).from(transfers).where(eq(transfers.id, rejected.transferId));
      return row.reason;
    });
    if (stored !== null) assert.equal(stored, "PAYOUT_REFUSED_BY_BANK");

    const again = await xmlPost("/v1/sandbox/payment-status-reports", report);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, { transactions: 2, applied: 0, unmatched: 0, duplicates: 2, unmatchedLines: [] });
    const r2 = (await readTransfer(rejected.c, rejected.transferId)).body;
    assert.equal(r2.stateHistory.length, r.stateHistory.length);
    assert.equal((await readTransfer(paid.c, paid.transferId)).body.stateHistory.length, p.stateHistory.length);
  });

  test("a transfer not in a file, and an unknown id, are unmatched", async () => {
    const funded = await fundedScenario();
    const res = await xmlPost(
      "/v1/sandbox/payment-status-reports",
      pain002("REP-unmatched", "pof_none", [
        { endToEndId: funded.transferId, status: "ACSC" },
        { endToEndId: "trf_doesnotexist", status: "RJCT", reason: "AC04" },
      ]),
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      transactions: 2,
      applied: 0,
      unmatched: 2,
      duplicates: 0,
      // Each unmatched line, which EndToEndId and why.
      unmatchedLines: [
        { endToEndId: funded.transferId, status: "ACSC", reason: "NO_SUCH_TRANSFER", message: "no transfer in a payout file has this EndToEndId" },
        { endToEndId: "trf_doesnotexist", status: "RJCT", reason: "NO_SUCH_TRANSFER", message: "no transfer in a payout file has this EndToEndId" },
      ],
    });
    assert.equal((await readTransfer(funded.c, funded.transferId)).body.transferStatus, "funded");
    // Leave nothing funded behind for the next file of the run.
    assert.equal((await xmlPost("/v1/sandbox/payout-files")).status, 200);
  });

  test("console: the file is listed on Payout files and its XML downloads for operators only", async () => {
    const s = await fundedScenario();
    const res = await xmlPost("/v1/sandbox/payout-files");
    assert.equal(res.status, 200, res.text);
    const fileId = /<MsgId>([^<]+)<\/MsgId>/.exec(res.text)![1];
    const cookie = await consoleCookie();
    const page = await fetch(`${BASE_URL}/console/payout-files`, { headers: { cookie } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, new RegExp(`pain.001_sandbox_MXN_${fileId}.xml`));
    assert.match(html, /topay/);
    const download = await fetch(`${BASE_URL}/console/payout-files/${fileId}/xml`, { headers: { cookie } });
    assert.equal(download.status, 200);
    assert.match(download.headers.get("content-type") ?? "", /^application\/xml/);
    assert.match(download.headers.get("content-disposition") ?? "", /^attachment; filename="pain.001_sandbox_MXN_/);
    assert.equal(await download.text(), res.text);
    const anonymous = await fetch(`${BASE_URL}/console/payout-files/${fileId}/xml`, { redirect: "manual" });
    assert.notEqual(anonymous.status, 200);
    assert.doesNotMatch(await anonymous.text(), new RegExp(s.transferId));
  });

  test("bad documents: JSON is 415, not XML is 400 validation.bodyMalformed, another document is 400 validation.fieldInvalid; no key is 401", async () => {
    assertError(await xmlPost("/v1/sandbox/payment-status-reports", "{}", "application/json"), 415, "validation.contentTypeUnsupported");
    assertError(await xmlPost("/v1/sandbox/payment-status-reports", "<Document><unclosed></Document>"), 400, "validation.bodyMalformed");
    const camt = '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt/></Document>';
    const res = await xmlPost("/v1/sandbox/payment-status-reports", camt);
    assertError(res, 400, "validation.fieldInvalid");
    assert.match(JSON.stringify(res.body.error.details), /CstmrPmtStsRpt/);
    // Hostile documents are refused as malformed (they were a 500 retry_later).
    const report = pain002("REP-hostile", "pof_none", [{ endToEndId: "trf_x", status: "ACSC" }]);
    const deep = report.replace("<TxSts>ACSC</TxSts>", `<TxSts>ACSC</TxSts>${"<X>".repeat(150)}x${"</X>".repeat(150)}`);
    const external = report.replace("<Document", '<!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document').replace("REP-hostile", "&x;");
    for (const xml of [deep, external.replace('<?xml version="1.0" encoding="UTF-8"?>\n', "")]) {
      const refused = await xmlPost("/v1/sandbox/payment-status-reports", xml);
      assertError(refused, 400, "validation.bodyMalformed");
      assert.equal(refused.body.error.hint, "fix_request");
    }
    const noKey = await call("POST", "/v1/sandbox/payout-files", { key: null });
    assertError(noKey, 401, "auth.subscriptionKeyInvalid");
  });
});
