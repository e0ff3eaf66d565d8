/**
 * Over HTTP (the pages' HTML with an admin's session): the Overview counts every
 * queue; the transfer page shows the beneficiary with its screening, the bank credit that funded it
 * (bank reference, payer), amounts for people and who held it; the customer page lists the
 * customer's beneficiaries and its status selector starts at the current status. The operator's
 * own hold (who, when, why in the holds queue and on the transfer page) is e2e/console-hold.test.ts.
 */
import { randomUUID } from "node:crypto";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { camt053 } from "../../support/camt053";
import { BASE_URL, awaitTransfer, call, hold, readBeneficiary, readTransfer } from "../support";
import { consoleCookie } from "../support/console";
import { fundingScenario, registeredScenario } from "../transfers/support";

let cookie = "";
before(async () => {
  cookie = await consoleCookie();
});

/** A console page's HTML as a person reads it (React's empty comments between text nodes dropped). */
async function page(path: string): Promise<string> {
  const res = await fetch(`${BASE_URL}${path}`, { headers: { cookie } });
  assert.equal(res.status, 200, path);
  return (await res.text()).replace(/<!-- -->/g, "");
}

const count = (html: string, name: string) => {
  const n = new RegExp(`data-testid="count-${name}"[^>]*>(\\d+)<`).exec(html)?.[1];
  assert.ok(n !== undefined, `an Overview tile for ${name}`);
  return Number(n);
};

function postStatement(credits: Parameters<typeof camt053>[0]) {
  const xml = camt053(credits, { messageId: `CONSOLE-${randomUUID().slice(0, 8)}` });
  return call("POST", "/v1/sandbox/bank-statements", { rawBody: xml, headers: { "content-type": "application/xml" } });
}

describe("console pages (issue 20 item 11)", () => {
  test("the Overview counts every queue, each as its page lists it", async () => {
    const before = await page("/console");
    for (const name of ["review", "holds", "beneficiaries", "screening-cases", "kyc-review", "bank-credits", "refunds", "payout-files", "deliveries"])
      count(before, name);
    // A credit matching nothing joins the Bank credits queue, and its tile.
    const res = await postStatement([{ bankReference: `OVERVIEW-${randomUUID().slice(0, 8)}`, amount: "12.34", currency: "USD", text: "no reference" }]);
    assert.equal(res.status, 200, res.text);
    assert.equal(count(await page("/console"), "bank-credits"), count(before, "bank-credits") + 1);
  });

  test("the transfer page: beneficiary and its screening, the funding credit (bank reference, payer), amounts for people; the customer page: beneficiaries and the current status", async () => {
    const s = await fundingScenario({ fresh: true });
    const chosen = await call("POST", `/v1/sandbox/funding-sessions/${s.confirmed.fundingSession.fundingSessionId}/bank-transfer`, { token: s.c.token });
    assert.equal(chosen.status, 200, chosen.text);
    const bankRef = `CONSOLE-${randomUUID().slice(0, 8)}`;
    const paid = await postStatement([
      { bankReference: bankRef, amount: chosen.body.amount, currency: chosen.body.currency, reference: chosen.body.reference },
    ]);
    assert.equal(paid.status, 200, paid.text);
    await awaitTransfer(s.c, s.transferId, "funded", (t) => t.stateHistory.some((h: { state: string }) => h.state === "funded"));
    const t = (await readTransfer(s.c, s.transferId)).body;
    const b = (await readBeneficiary(s.c, s.beneficiaryId)).body;

    const html = await page(`/console/transfers/${s.transferId}`);
    const beneficiary = /data-testid="beneficiary"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    assert.ok(beneficiary.includes(`${b.firstName} ${b.lastName}`), "the beneficiary's name");
    assert.ok(beneficiary.includes(s.beneficiaryId));
    assert.match(beneficiary, /data-testid="screening-evidence"[\s\S]*Screening <span[^>]*>[A-Z_]+<\/span>/, "the beneficiary's screening result");
    const credits = /data-testid="funding-credits"[\s\S]*?<\/table>/.exec(html)?.[0] ?? "";
    assert.ok(credits.includes(bankRef), "the credit's bank reference");
    assert.ok(credits.includes("Maria Payer") && credits.includes("FR****0189"), "the payer, account masked");
    assert.match(credits, /MATCHED/);
    // Amounts for people: grouped, the currency's minor digits, its code ("USD 102.99"), never "100.000000 USD".
    const people = (amount: string, currency: string) =>
      new Intl.NumberFormat("en-GB", { style: "currency", currency, currencyDisplay: "code" }).format(Number(amount));
    for (const [amount, currency] of [
      [t.originAmount, t.originCurrency],
      [t.destinationAmount, t.destinationCurrency],
      [chosen.body.amount, chosen.body.currency],
    ]) {
      assert.ok(html.includes(people(amount, currency)), `${amount} ${currency} as ${people(amount, currency)}`);
    }
    assert.ok(!html.includes(`${t.originAmount} ${t.originCurrency}`), "no raw six-decimal amount");

    const customer = await page(`/console/customers/${s.c.subscriptionId}`);
    const rows = /data-testid="beneficiaries"[\s\S]*?<\/table>/.exec(customer)?.[0] ?? "";
    assert.ok(rows.includes(`${b.firstName} ${b.lastName}`) && rows.includes(s.beneficiaryId), "the beneficiary listed");
    assert.match(rows, new RegExp(`<span[^>]*>${b.state}</span>`), "its state");
    assert.match(
      rows,
      /<td[^>]*><span[^>]*>[A-Z_]+<\/span><\/td><td[^>]*>\d{1,2} \w{3,4} \d{4}, [\d:]{8} UTC<\/td>/,
      "its screening result and when it was created",
    );
    const current = /Customer <span[^>]*>([A-Z]+)<\/span>/.exec(customer)?.[1];
    const select = /<select[^>]*name="status"[^>]*>([\s\S]*?)<\/select>/.exec(customer)?.[1] ?? "";
    assert.equal(/<option[^>]*selected=""[^>]*>([^<]+)</.exec(select)?.[1], current, "the status selector starts at the current status");
  });

  test("a hold placed outside the console shows when, and that no operator placed it", async () => {
    const s = await registeredScenario();
    const held = await hold(s.c, s.transferId);
    assert.equal(held.status, 200, held.text);
    const html = await page(`/console/transfers/${s.transferId}`);
    const info = /data-testid="hold-info"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "";
    assert.match(info, /^Held by a compliance event outside the console on \d{1,2} \w{3,4} \d{4}, \d{2}:\d{2}:\d{2} UTC$/);
  });
});
