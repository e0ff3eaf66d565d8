import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DomainError } from "@/lib/platform/errors";
import { parseCamt053, plainDecimal, readCamt053 } from "@/lib/payments/reconciliation/camt";
import { schemaProblems } from "@/lib/payments/reconciliation/xsd";
import { camt053 } from "../../support/camt053";

const malformed = (e: unknown) => e instanceof DomainError && e.code === "validation.bodyMalformed";

describe("camt.053.001.08 statements", () => {
  test("the test builder's document is valid against the shipped XSD", async () => {
    assert.deepEqual(
      await schemaProblems(camt053([{ bankReference: "B1", amount: "10.00", currency: "EUR", reference: "RF18539007547034" }]), "camt.053.001.08"),
      [],
    );
  });

  test("the OpenAPI example of POST /v1/sandbox/bank-statements is a valid statement with one matched-shape credit", async () => {
    const { sandboxImportBankStatement } = await import("@/lib/interface/api/contracts/bank-transfer");
    const parsed = await readCamt053(sandboxImportBankStatement.examples!.request as string);
    assert.deepEqual(
      parsed.credits.map((c) => [c.bankReference, c.amount, c.currency, c.creditorReference]),
      [["BANK-2026112000001", "102.99", "USD", "RF18539007547034"]],
    );
  });

  test("booked credits are read with their reference; debits and pending entries are ignored", async () => {
    const parsed = await readCamt053(
      camt053([
        { bankReference: "B1", amount: "102.99", currency: "EUR", reference: "RF18539007547034" },
        { bankReference: "B2", amount: "5", currency: "USD", text: "rent RF18 5390 0754 7034 thanks" },
        { bankReference: "B3", amount: "7.10", currency: "EUR", text: "no reference" },
        { bankReference: "B4", amount: "1.00", currency: "EUR", debit: true },
        { bankReference: "B5", amount: "1.00", currency: "EUR", status: "PDNG" },
      ]),
    );
    assert.equal(parsed.messageId, "STMT-1");
    assert.equal(parsed.ignored, 2);
    assert.deepEqual(
      parsed.credits.map((c) => [c.bankReference, c.amount, c.currency, c.creditorReference]),
      [
        ["B1", "102.99", "EUR", "RF18539007547034"],
        ["B2", "5", "USD", "RF18539007547034"],
        ["B3", "7.10", "EUR", null],
      ],
    );
    assert.equal(parsed.credits[0].payerName, "Maria Payer");
    assert.equal(parsed.credits[0].payerAccount, "FR****0189", "the payer's IBAN is masked");
    assert.equal(parsed.credits[0].bookingDate, "2026-11-20");
  });

  test("an amount in another xs:decimal form is read in the amount columns' one form, its digits kept", async () => {
    const parsed = await readCamt053(
      camt053([
        { bankReference: "B1", amount: "+010.50", currency: "EUR" },
        { bankReference: "B2", amount: ".5", currency: "EUR" },
        { bankReference: "B3", amount: "10.", currency: "EUR" },
        { bankReference: "B4", amount: "0.10", currency: "EUR" },
      ]),
    );
    assert.deepEqual(
      parsed.credits.map((c) => c.amount),
      ["10.50", "0.5", "10", "0.10"],
    );
    assert.deepEqual(["+1", "007", "1.", ".25", "12.340", "-0.00", "abc"].map(plainDecimal), ["1", "7", "1", "0.25", "12.340", "-0.00", "abc"]);
  });

  test("not XML, another message, or a schema violation: validation.bodyMalformed with the problems", async () => {
    await assert.rejects(readCamt053("hello"), malformed);
    await assert.rejects(readCamt053(""), malformed);
    await assert.rejects(readCamt053('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"/>'), malformed);
    const bad = camt053([{ bankReference: "B1", amount: "ten", currency: "EUR" }]);
    await assert.rejects(readCamt053(bad), (e: unknown) => {
      assert.ok(malformed(e));
      const problems = (e as DomainError).details!.problems as { message: string }[];
      assert.ok(problems.length > 0 && problems.some((p) => /Amt|ten/.test(p.message)), JSON.stringify(problems));
      return true;
    });
  });

  test("an entity declaration is not expanded (no external entity or billion laughs)", async () => {
    const xml = camt053([{ bankReference: "B1", amount: "1.00", currency: "EUR", text: "x" }])
      .replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>')
      .replace("<Ustrd>x</Ustrd>", "<Ustrd>&x;</Ustrd>");
    const parsed = await readCamt053(xml).catch((e: unknown) => e);
    if (parsed instanceof DomainError) return assert.ok(malformed(parsed));
    assert.doesNotMatch(JSON.stringify(parsed), /root:/);
  });

  test("a DOCTYPE or nesting deeper than 100 elements is validation.bodyMalformed (one helper with pain.002, issue 20 item 5)", async () => {
    const xml = camt053([{ bankReference: "B1", amount: "1.00", currency: "EUR", text: "x" }]);
    const doctype = xml.replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE Document>');
    await assert.rejects(readCamt053(doctype), (e: unknown) => malformed(e) && /DOCTYPE/.test((e as DomainError).message));
    // Supplementary data takes any content the schema does not check: only the depth limit stops it.
    const deep = xml.replace("</Bal>", `</Bal><SplmtryData><Envlp>${"<X>".repeat(150)}x${"</X>".repeat(150)}</Envlp></SplmtryData>`);
    await assert.rejects(readCamt053(deep), (e: unknown) => malformed(e));
    assert.throws(
      () => parseCamt053(deep),
      (e: unknown) => malformed(e) && /deeper than 100/.test((e as DomainError).message),
    );
  });

  test("an amount below the currency's minor unit, or a code that is not a currency, is refused", async () => {
    await assert.rejects(readCamt053(camt053([{ bankReference: "B1", amount: "10.001", currency: "EUR" }])), malformed);
    await assert.rejects(readCamt053(camt053([{ bankReference: "B1", amount: "10", currency: "XXX" }])), malformed);
    await assert.rejects(readCamt053(camt053([{ bankReference: "B1", amount: "10.5", currency: "JPY" }])), malformed);
  });

  test("the statement's account is read (IBAN or Othr/Id); a batch booking is one credit per TxDtls with its own amount and reference (issue 20 item 8)", async () => {
    const single = await readCamt053(camt053([{ bankReference: "B1", amount: "1.00", currency: "EUR" }], { iban: "GB33BUKB20201555555555" }));
    assert.deepEqual(single.accounts, ["GB33BUKB20201555555555"]);
    const other = await readCamt053(camt053([{ bankReference: "B1", amount: "1.00", currency: "EUR" }], { otherAccount: "002010077777777771" }));
    assert.deepEqual(other.accounts, ["002010077777777771"]);

    const batch = (b: NonNullable<Parameters<typeof camt053>[0][number]["batch"]>, amount = "30.00") =>
      camt053([{ bankReference: "BATCH1", amount, currency: "EUR", batch: b }]);
    const read = await readCamt053(
      batch([
        { amount: "10.00", text: "no reference here", payer: "Ana" },
        { amount: "20.00", text: "rent RF18 5390 0754 7034", inDetails: true, payer: "Bo" },
      ]),
    );
    assert.deepEqual(
      read.credits.map((c) => [c.bankReference, c.amount, c.currency, c.creditorReference, c.payerName]),
      [
        ["BATCH1/1", "10.00", "EUR", null, "Ana"],
        ["BATCH1/2", "20.00", "EUR", "RF18539007547034", "Bo"],
      ],
    );
    // The bank's own per-transaction references, when distinct, name the credits.
    const own = await readCamt053(
      batch([
        { amount: "10.00", bankReference: "TX-A" },
        { amount: "20.00", bankReference: "TX-B" },
      ]),
    );
    assert.deepEqual(
      own.credits.map((c) => c.bankReference),
      ["TX-A", "TX-B"],
    );
    // A batch that cannot be split is refused: a transaction without an amount, or amounts not adding up.
    await assert.rejects(readCamt053(batch([{ amount: "10.00" }, { text: "x" }])), (e: unknown) => malformed(e) && /no amount/.test((e as Error).message));
    await assert.rejects(
      readCamt053(batch([{ amount: "10.00" }, { amount: "19.99" }])),
      (e: unknown) => malformed(e) && /sum to 29.99/.test((e as Error).message),
    );
  });

  test("two entries with one AcctSvcrRef are refused", async () => {
    const xml = camt053([
      { bankReference: "B1", amount: "1.00", currency: "EUR" },
      { bankReference: "B1", amount: "2.00", currency: "EUR" },
    ]);
    await assert.rejects(readCamt053(xml), malformed);
  });
});
