import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DomainError } from "@/lib/errors";
import { readCamt053 } from "@/lib/reconciliation/camt";
import { schemaProblems } from "@/lib/reconciliation/xsd";
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
    const { sandboxImportBankStatement } = await import("@/lib/api/contracts/bank-transfer");
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

  test("an amount below the currency's minor unit, or a code that is not a currency, is refused", async () => {
    await assert.rejects(readCamt053(camt053([{ bankReference: "B1", amount: "10.001", currency: "EUR" }])), malformed);
    await assert.rejects(readCamt053(camt053([{ bankReference: "B1", amount: "10", currency: "XXX" }])), malformed);
    await assert.rejects(readCamt053(camt053([{ bankReference: "B1", amount: "10.5", currency: "JPY" }])), malformed);
  });

  test("two entries with one AcctSvcrRef are refused", async () => {
    const xml = camt053([
      { bankReference: "B1", amount: "1.00", currency: "EUR" },
      { bankReference: "B1", amount: "2.00", currency: "EUR" },
    ]);
    await assert.rejects(readCamt053(xml), malformed);
  });
});
