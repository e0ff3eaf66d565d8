import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SANDBOX_PAYOUT_BANKS } from "@/lib/platform/config/payout-banks";
import { DomainError } from "@/lib/platform/errors";
import { sandboxPaymentStatusReports, sandboxPayoutFiles } from "@/lib/interface/api/contracts/payout-files";
import { buildPain001 } from "@/lib/payments/payouts/pain001";
import { parsePain002 } from "@/lib/payments/payouts/pain002";
import { rejectionReasonFor } from "@/lib/payments/payouts/reject-reasons";
import { pain001SchemaErrors, pain002 } from "../../support/iso20022";

const bank = SANDBOX_PAYOUT_BANKS[0];

describe("pain.001 files (issue 12 item 4)", () => {
  test("a file with IBAN and other accounts, and names needing escapes, is valid against the shipped XSD", async () => {
    const xml = buildPain001({
      messageId: "pof_test1",
      createdAt: new Date("2026-11-23T10:00:00.123Z"),
      initiatingParty: bank.debtorName,
      payments: [
        {
          id: "pof_test1",
          bank,
          currency: "MXN",
          executionDate: "2026-11-23",
          transfers: [
            {
              endToEndId: "trf_a",
              amount: "1875.00",
              creditorName: "Ana <Ruiz> & Co",
              creditorCountry: "MX",
              creditorAccount: { other: "002010077777777771", scheme: "CLABE" },
            },
            { endToEndId: "trf_b", amount: "10.50", creditorName: "Bo", creditorAccount: { iban: "DE89370400440532013000" } },
          ],
        },
      ],
    });
    assert.deepEqual(await pain001SchemaErrors(xml), []);
    assert.match(xml, /<NbOfTxs>2<\/NbOfTxs>/);
    assert.match(xml, /<CtrlSum>1885.50<\/CtrlSum>/);
    assert.match(xml, /<InstdAmt Ccy="MXN">1875.00<\/InstdAmt>/);
    assert.match(xml, /<EndToEndId>trf_a<\/EndToEndId>/);
    assert.match(xml, /Ana &lt;Ruiz&gt; &amp; Co/);
  });

  test("issue 24: the customer as ultimate debtor, creditor agent, charge bearer, purpose and account scheme are XSD-valid and in place", async () => {
    const xml = buildPain001({
      messageId: "pof_test2",
      createdAt: new Date("2026-11-23T10:00:00Z"),
      initiatingParty: bank.debtorName,
      payments: [
        {
          id: "pof_test2",
          bank: { ...bank, chargeBearer: "SHAR", purposeCode: "FAMI" },
          currency: "MXN",
          executionDate: "2026-11-23",
          transfers: [
            {
              endToEndId: "trf_a",
              instructionId: "trf_a/2",
              amount: "1875.00",
              creditorName: "Ana Ruiz",
              creditorAccount: { other: "002010077777777771", scheme: "CLABE" },
              creditorAgentBic: "BNMXMXMMXXX",
              ultimateDebtor: {
                name: "John Q Public",
                customerId: "cus_1",
                address: { lines: ["1 Main Street", "Apt 2"], town: "Springfield", postCode: "12345", region: "IL", country: "US" },
                birth: { date: "1980-02-29", city: "Chicago", country: "US" },
              },
            },
            { endToEndId: "trf_b", amount: "10.50", creditorName: "Bo", creditorAccount: { other: "1234567890", scheme: "BBAN" } },
          ],
        },
      ],
    });
    assert.deepEqual(await pain001SchemaErrors(xml), []);
    assert.match(xml, /<ChrgBr>SHAR<\/ChrgBr>/);
    assert.match(xml, /<InstrId>trf_a\/2<\/InstrId>/);
    assert.match(xml, /<UltmtDbtr>\s*<Nm>John Q Public<\/Nm>\s*<PstlAdr>\s*<PstCd>12345<\/PstCd>\s*<TwnNm>Springfield<\/TwnNm>/);
    assert.match(xml, /<DtAndPlcOfBirth>\s*<BirthDt>1980-02-29<\/BirthDt>\s*<CityOfBirth>Chicago<\/CityOfBirth>\s*<CtryOfBirth>US<\/CtryOfBirth>/);
    assert.match(xml, /<Othr>\s*<Id>cus_1<\/Id>\s*<SchmeNm>\s*<Cd>CUST<\/Cd>/);
    assert.match(xml, /<CdtrAgt>\s*<FinInstnId>\s*<BIC>BNMXMXMMXXX<\/BIC>/);
    assert.match(xml, /<Prtry>CLABE<\/Prtry>/);
    assert.match(xml, /<Id>1234567890<\/Id>\s*<SchmeNm>\s*<Cd>BBAN<\/Cd>/);
    assert.match(xml, /<Purp>\s*<Cd>FAMI<\/Cd>\s*<\/Purp>/);
    assert.doesNotMatch(xml, /BANK_TRANSFER/, "the account scheme, not the payout method");
  });

  test("the schema check is real: a file missing its debtor agent is refused", async () => {
    const xml = buildPain001({
      messageId: "pof_test2",
      createdAt: new Date(),
      initiatingParty: "X",
      payments: [{ id: "p", bank, currency: "MXN", executionDate: "2026-11-23", transfers: [{ endToEndId: "trf_c", amount: "1.00", creditorName: "C" }] }],
    }).replace(/<DbtrAgt>[\s\S]*?<\/DbtrAgt>/, "");
    assert.notDeepEqual(await pain001SchemaErrors(xml), []);
  });
});

describe("the API reference's examples of the file rails", () => {
  test("the pain.001 answer is valid against the shipped XSD and the pain.002 request parses", async () => {
    assert.deepEqual(await pain001SchemaErrors(String(sandboxPayoutFiles.examples?.response)), []);
    const [line] = parsePain002(String(sandboxPaymentStatusReports.examples?.request)).transactions;
    assert.equal(line.status, "ACSC");
  });
});

describe("pain.002 status reports", () => {
  test("reads each transaction's end-to-end id, status and first reason code", () => {
    const report = parsePain002(
      pain002("rep1", "pof_1", [
        { endToEndId: "trf_a", status: "ACSC" },
        { endToEndId: "trf_b", status: "RJCT", reason: "AC04" },
      ]),
    );
    assert.deepEqual(report, {
      messageId: "rep1",
      originalMessageId: "pof_1",
      transactions: [
        // No OrgnlInstrId in this report: the line is matched to its attempt by the payout file it names.
        { endToEndId: "trf_a", instructionId: undefined, payoutFileId: "pof_1", status: "ACSC", reasonCode: null },
        { endToEndId: "trf_b", instructionId: undefined, payoutFileId: "pof_1", status: "RJCT", reasonCode: "AC04" },
      ],
      blocks: [],
    });
  });

  test("issue 24: a group status and a payment block's status are read with their reasons", () => {
    const xml = pain002("rep2", "pof_1", [])
      .replace(
        "<OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId>",
        "<OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId><GrpSts>RJCT</GrpSts><StsRsnInf><Rsn><Cd>FF01</Cd></Rsn></StsRsnInf>",
      )
      .replace("<OrgnlPmtInfId>pof_1</OrgnlPmtInfId>", "<OrgnlPmtInfId>pof_2</OrgnlPmtInfId><PmtInfSts>RJCT</PmtInfSts>");
    assert.deepEqual(parsePain002(xml).blocks, [
      { payoutFileId: "pof_1", status: "RJCT", reasonCode: "FF01" },
      { payoutFileId: "pof_2", status: "RJCT", reasonCode: null },
    ]);
  });

  test("not XML is validation.bodyMalformed; another document is validation.fieldInvalid naming the part", () => {
    assert.throws(
      () => parsePain002("<Document><oops></Document>"),
      (e) => e instanceof DomainError && e.code === "validation.bodyMalformed",
    );
    assert.throws(
      () => parsePain002('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt/></Document>'),
      (e) => e instanceof DomainError && e.code === "validation.fieldInvalid" && JSON.stringify(e.details).includes("CstmrPmtStsRpt"),
    );
    const noStatus = pain002("rep2", "pof_1", [{ endToEndId: "trf_a", status: "ACSC" }]).replace(/<TxSts>ACSC<\/TxSts>/, "");
    assert.throws(
      () => parsePain002(noStatus),
      (e) => e instanceof DomainError && e.code === "validation.fieldInvalid" && JSON.stringify(e.details).includes("TxSts"),
    );
  });

  test("hostile documents are 400 validation.bodyMalformed, never a parser's Error (issue 20 item 5)", () => {
    const report = pain002("rep3", "pof_1", [{ endToEndId: "trf_a", status: "RJCT", reason: "AC04" }]);
    const deep = report.replace("<TxSts>RJCT</TxSts>", `<TxSts>RJCT</TxSts>${"<X>".repeat(150)}x${"</X>".repeat(150)}`);
    const external = report
      .replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>')
      .replace("<MsgId>rep3</MsgId>", "<MsgId>&x;</MsgId>");
    const laughs = report.replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>');
    for (const [name, xml, message] of [
      ["deeper than 100 elements", deep, /deeper than 100/],
      ["an external entity", external, /DOCTYPE/],
      ["an internal entity", laughs, /DOCTYPE/],
    ] as const) {
      assert.throws(
        () => parsePain002(xml),
        (e) => e instanceof DomainError && e.code === "validation.bodyMalformed" && message.test(e.message),
        name,
      );
    }
    // 100 levels in all still reads (the limit is the document's depth, not a smaller one).
    const within = report.replace("<TxSts>RJCT</TxSts>", `<TxSts>RJCT</TxSts>${"<X>".repeat(90)}x${"</X>".repeat(90)}`);
    assert.equal(parsePain002(within).transactions[0].reasonCode, "AC04");
  });

  test("reason codes map to our reasons from the table; unknown codes are kept verbatim", () => {
    assert.equal(rejectionReasonFor("AC01"), "PAYOUT_ACCOUNT_INVALID");
    assert.equal(rejectionReasonFor("AC04"), "PAYOUT_ACCOUNT_CLOSED");
    assert.equal(rejectionReasonFor("AM04"), "PAYOUT_INSUFFICIENT_FUNDS");
    assert.equal(rejectionReasonFor("MD07"), "PAYOUT_BENEFICIARY_DECEASED");
    assert.equal(rejectionReasonFor("ZZ99"), "ZZ99");
    assert.equal(rejectionReasonFor(null), "PAYOUT_REJECTED");
  });
});
