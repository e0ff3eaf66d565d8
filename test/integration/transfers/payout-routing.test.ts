/**
 * The routed payout over HTTP (a server of its own: PAYOUT_PROVIDER=routed; PostgreSQL under
 * TEST_DRIVER=postgres, else PGlite): the aggregator's signed status webhook (forged, replayed
 * and malformed deliveries refused in the envelope; a late success after failover refused once,
 * a duplicate delivery changing nothing; its reversal's return applied once; a status for another provider's try ignored), a paid
 * payout returned by the beneficiary's bank (listed on the payouts console and refunded from it), and
 * payee verification's four answers in the transfer detail.
 */
import assert from "node:assert/strict";
import { randomInt, randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { signAggregatorBody } from "@/lib/payments/providers/payout-aggregator";
import { startOwnServer, type OwnServer } from "../../support/own-server";

type Api = typeof import("../support");
type Console = typeof import("../support/console");

let server: OwnServer | undefined;
let api: Api;
let consoleHttp: Console;
let cookie: string;

before(async () => {
  server = await startOwnServer(
    {
      PAYOUT_PROVIDER: "routed",
      PAYOUT_BANKS: JSON.stringify([
        {
          id: "mxbank",
          name: "MX Payout Bank",
          bic: "BNMXMXMMXXX",
          debtorAccount: { scheme: "CLABE", id: "002010077777777771" },
          debtorName: "Remit Ltd",
          currencies: ["MXN"],
        },
      ]),
      // One operator records the top-ups here; their dual control is tested on the database.
      DUAL_CONTROL_OFF: "prefunding.topUp",
    },
    { followTestDriver: true },
  );
  // The helpers read TEST_BASE_URL when first imported: point them at this test's own server.
  process.env.TEST_BASE_URL = server.baseUrl;
  api = await import("../support");
  consoleHttp = await import("../support/console");
  cookie = await consoleHttp.consoleCookie();
});
after(async () => {
  await server?.stop();
});

/** A valid CLABE whose account digits carry a sandbox aggregator marker ("99901": timeout), or none. */
function clabe(marker = ""): string {
  const body = ("002010" + marker + Array.from({ length: 11 }, () => randomInt(10)).join("")).slice(0, 17);
  const sum = [...body].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
  return body + String((10 - (sum % 10)) % 10);
}

/** A console page's HTML, as the signed-in administrator. */
async function consolePage(path: string): Promise<string> {
  const res = await fetch(`${server!.baseUrl}${path}`, { headers: { cookie } });
  assert.equal(res.status, 200, path);
  return res.text();
}

/** A top-up through the liquidity page's form, posted as a browser without JavaScript would. */
async function topUp(provider: string, amount: string) {
  const html = await consolePage("/console/liquidity");
  const form = html.split("<form").find((f) => f.includes('name="bankReference"'));
  const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(form ?? "")?.[1];
  assert.ok(actionField, "the top-up form's action");
  const body = new FormData();
  body.set(actionField, "");
  body.set("back", "/console/liquidity");
  body.set("provider", provider);
  body.set("currency", "MXN");
  body.set("amount", amount);
  body.set("bankReference", `IT-${provider}-${randomUUID()}`);
  const res = await fetch(`${server!.baseUrl}/console/liquidity`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: server!.baseUrl },
    body,
  });
  assert.ok(res.status < 400, `top-up ${provider}: ${res.status}`);
}

/** The transfer's tries on the console page: seq → { id, text }. */
async function attempts(transferId: string): Promise<Map<number, { id: string; text: string }>> {
  const html = await consolePage(`/console/transfers/${transferId}`);
  const out = new Map<number, { id: string; text: string }>();
  for (const m of html.matchAll(/data-testid="provider-attempt-(\d+)"(.*?)<\/tr>/gs)) {
    const id = /data-testid="provider-attempt-id"[^>]*>(ppa_[^<]+)</.exec(m[2])?.[1];
    if (id) out.set(Number(m[1]), { id, text: m[2].replace(/<[^>]+>/g, " ") });
  }
  return out;
}

function deliver(body: string, signature: string | null) {
  return api.call("POST", "/payout-aggregator/webhook", {
    rawBody: body,
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-aggregator-signature": signature }) },
  } as never);
}

describe("the aggregator's status webhook", () => {
  let transferId: string;
  let aggregatorTry: string;
  let bankFileTry: string;

  before(async () => {
    // Timeout at the aggregator (test destination 99901): the payout fails over to the bank file.
    const c = await api.validCustomer();
    const beneficiaryId = await api.validBeneficiaryId(c);
    ({ transferId } = await api.acceptTransfer(c, beneficiaryId));
    const submitted = await api.submit(c, transferId, api.submitBody(beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: clabe("99901") }));
    assert.equal(submitted.status, 202, submitted.text);
    assert.equal((await api.awaitFastCheck(c, transferId)).transferStatus, "validated");
    const device = await api.registerDevice(c);
    const confirmed = await api.confirmNow({ customer: c, device }, transferId);
    const done = await api.completeFunding(c, confirmed.fundingSession.fundingSessionId);
    assert.equal(done.status, 200, done.text);
    await topUp("aggregator", "500000.00");
    await topUp("bank-file", "500000.00");
    const tries = await api.eventually(
      async () => {
        const t = await attempts(transferId);
        return t.get(2) && /SUBMITTED/.test(t.get(2)!.text) ? t : null;
      },
      60_000,
      "the bank file's try after the failover",
    );
    assert.match(tries.get(1)!.text, /aggregator/);
    assert.match(tries.get(1)!.text, /FAILED/);
    assert.match(tries.get(2)!.text, /bank-file/);
    aggregatorTry = tries.get(1)!.id;
    bankFileTry = tries.get(2)!.id;
  });

  const completed = (externalId: string) => JSON.stringify({ id: `agg_${randomUUID()}`, external_id: externalId, status: "COMPLETED" });

  test("unsigned, forged or altered: 401 auth.tokenInvalid in the envelope, nothing applied", async () => {
    const body = completed(aggregatorTry);
    const unsigned = await deliver(body, null);
    assert.equal(unsigned.status, 401, unsigned.text);
    assert.equal(api.errorOf(unsigned).code, "auth.tokenInvalid");
    const forged = await deliver(body, signAggregatorBody(body, new Date(), "not-the-aggregator-secret"));
    assert.equal(forged.status, 401, forged.text);
    const altered = await deliver(body.replace("COMPLETED", "REJECTED"), signAggregatorBody(body, new Date()));
    assert.equal(altered.status, 401, altered.text);
    assert.equal(api.errorOf(altered).code, "auth.tokenInvalid");
    assert.match((await attempts(transferId)).get(1)!.text, /FAILED/);
  });

  test("a delivery signed ten minutes ago (a replay): 401 auth.tokenExpired, nothing applied", async () => {
    const body = completed(aggregatorTry);
    const res = await deliver(body, signAggregatorBody(body, new Date(Date.now() - 10 * 60_000)));
    assert.equal(res.status, 401, res.text);
    assert.equal(api.errorOf(res).code, "auth.tokenExpired");
    assert.match((await attempts(transferId)).get(1)!.text, /FAILED/);
  });

  test("signed but no status: 400 validation.bodyMalformed", async () => {
    for (const body of ["not json", JSON.stringify({ external_id: aggregatorTry, status: "PAID" }), JSON.stringify({ status: "COMPLETED" })]) {
      const res = await deliver(body, signAggregatorBody(body, new Date()));
      assert.equal(res.status, 400, `${body}: ${res.text}`);
      assert.equal(api.errorOf(res).code, "validation.bodyMalformed");
    }
  });

  test("the aggregator's success after the failover is refused (LATE_PAID) once; the same delivery again changes nothing", async () => {
    const body = completed(aggregatorTry);
    const signature = signAggregatorBody(body, new Date());
    const first = await deliver(body, signature);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { received: true, applied: true, attemptState: "LATE_PAID" });
    const again = await deliver(body, signature);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, { received: true, applied: false, attemptState: "LATE_PAID" });
    const tries = await attempts(transferId);
    assert.match(tries.get(1)!.text, /LATE_PAID/);
    assert.match(tries.get(1)!.text, /LATE_SUCCESS_REFUSED/);
    // The bank file's try still holds the transfer: paid once, by it.
    assert.match(tries.get(2)!.text, /SUBMITTED/);
    assert.equal(tries.size, 2);
  });

  test("the aggregator's return of that late payment (REVERSED) is applied once: the try is REVERSED", async () => {
    const body = JSON.stringify({ id: `agg_${randomUUID()}`, external_id: aggregatorTry, status: "REVERSED" });
    const signature = signAggregatorBody(body, new Date());
    const first = await deliver(body, signature);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { received: true, applied: true, attemptState: "REVERSED" });
    const again = await deliver(body, signature);
    assert.deepEqual(again.body, { received: true, applied: false, attemptState: "REVERSED" });
    const tries = await attempts(transferId);
    assert.match(tries.get(1)!.text, /REVERSED/);
    assert.match(tries.get(2)!.text, /SUBMITTED/);
  });

  test("a status for the bank file's try, or for no try of ours: acknowledged, nothing applied", async () => {
    for (const externalId of [bankFileTry, `ppa_${randomUUID().replace(/-/g, "")}`]) {
      const body = completed(externalId);
      const res = await deliver(body, signAggregatorBody(body, new Date()));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { received: true, applied: false, attemptState: null });
    }
    assert.match((await attempts(transferId)).get(2)!.text, /SUBMITTED/);
  });
});

describe("a paid payout returned by the beneficiary's bank", () => {
  test("the aggregator's REVERSED for the try that paid: RETURNED once, listed on the payouts console, refunded by the operator's form; the transfer stays paid", async () => {
    const c = await api.validCustomer();
    const beneficiaryId = await api.validBeneficiaryId(c);
    const { transferId } = await api.acceptTransfer(c, beneficiaryId);
    const submitted = await api.submit(c, transferId, api.submitBody(beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: clabe() }));
    assert.equal(submitted.status, 202, submitted.text);
    assert.equal((await api.awaitFastCheck(c, transferId)).transferStatus, "validated");
    const device = await api.registerDevice(c);
    const confirmed = await api.confirmNow({ customer: c, device }, transferId);
    assert.equal((await api.completeFunding(c, confirmed.fundingSession.fundingSessionId)).status, 200);
    await topUp("aggregator", "500000.00");
    const paidTry = await api.eventually(
      async () => {
        const t = (await attempts(transferId)).get(1);
        return t && /aggregator/.test(t.text) && /PAID/.test(t.text) ? t : null;
      },
      60_000,
      "the aggregator's paid try",
    );
    assert.equal((await api.readTransfer(c, transferId)).body.transferStatus, "paid");

    const body = JSON.stringify({ id: `agg_${randomUUID()}`, external_id: paidTry.id, status: "REVERSED", status_reason_code: "AC04" });
    const signature = signAggregatorBody(body, new Date());
    const first = await deliver(body, signature);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { received: true, applied: true, attemptState: "RETURNED" });
    assert.deepEqual((await deliver(body, signature)).body, { received: true, applied: false, attemptState: "RETURNED" });

    /** The payouts console's returned-payout items, each up to its end. */
    const returnedItems = async () =>
      (await consolePage("/console/payout-files"))
        .split('data-testid="returned-payout"')
        .slice(1)
        .map((part) => part.split("</li>")[0]);
    const item = (await returnedItems()).find((part) => part.includes(transferId));
    assert.ok(item, "the returned payout is listed");
    assert.match(item, /AC04/);
    const form = item.split("<form")[1] ?? "";
    const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(form)?.[1];
    assert.ok(actionField, "the refund form's action");
    const refund = new FormData();
    refund.set(actionField, "");
    refund.set("back", "/console/payout-files");
    refund.set("transferId", transferId);
    refund.set("reason", "Account closed, customer informed");
    const res = await fetch(`${server!.baseUrl}/console/payout-files`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server!.baseUrl },
      body: refund,
    });
    assert.ok(res.status < 400, `refund: ${res.status}`);
    assert.match((await attempts(transferId)).get(1)!.text, /RETURN_REFUNDED/);
    assert.ok(!(await returnedItems()).some((part) => part.includes(transferId)), "no longer listed once refunded");
    const detail = (await api.readTransfer(c, transferId)).body;
    assert.equal(detail.transferStatus, "paid");
    assert.equal(detail.refund?.refundStatus, "PENDING");
  });
});

describe("payee verification in the transfer detail", () => {
  test("the sandbox's four answers (by the beneficiary's last name) reach payeeVerification", async () => {
    const c = await api.validCustomer();
    const cases = [
      { lastName: "Ruiz", result: "MATCH" },
      { lastName: "Closematch", result: "CLOSE_MATCH", nameHeld: "Lucia Closematch Ortega" },
      { lastName: "Nomatch", result: "NO_MATCH" },
      { lastName: "Unverifiable", result: "NOT_POSSIBLE" },
    ];
    for (const want of cases) {
      const beneficiaryId = await api.validBeneficiaryId(c, { firstName: "Lucia", lastName: want.lastName });
      const { transferId } = await api.acceptTransfer(c, beneficiaryId);
      const submitted = await api.submit(c, transferId, api.submitBody(beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: clabe() }));
      assert.equal(submitted.status, 202, submitted.text);
      const detail = await api.eventually(
        async () => {
          const t = await api.readTransfer(c, transferId);
          return t.body.payeeVerification ? t.body : null;
        },
        30_000,
        `payeeVerification for ${want.lastName}`,
      );
      assert.equal(detail.payeeVerification.result, want.result, want.lastName);
      assert.equal(detail.payeeVerification.nameHeld, want.nameHeld, want.lastName);
      assert.ok(!Number.isNaN(Date.parse(detail.payeeVerification.checkedAt)));
      // Only the answer travels: no provider, no raw answer of the bank.
      assert.deepEqual(Object.keys(detail.payeeVerification).sort(), ["checkedAt", "result", ...(want.nameHeld ? ["nameHeld"] : [])].sort());
    }
  });
});

describe("the provider's statement on the liquidity page", () => {
  test("an uploaded statement that differs from our prefunding is listed with its difference, under the page's alert", async () => {
    const html = await consolePage("/console/liquidity");
    const form = html.split("<form").find((f) => f.includes('name="statement"'));
    const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(form ?? "")?.[1];
    assert.ok(actionField, "the statement upload's action");
    const id = `it-${randomUUID()}`;
    const statement = JSON.stringify({ statement_id: id, generated_at: new Date().toISOString(), balances: [{ currency: "MXN", closing_balance: "1.00" }] });
    const body = new FormData();
    body.set(actionField, "");
    body.set("back", "/console/liquidity");
    body.set("provider", "aggregator");
    body.set("statement", new File([statement], "statement.json", { type: "application/json" }));
    const res = await fetch(`${server!.baseUrl}/console/liquidity`, { method: "POST", redirect: "manual", headers: { cookie, origin: server!.baseUrl }, body });
    assert.ok(res.status < 400, `upload: ${res.status}`);
    const after = await consolePage("/console/liquidity");
    const row = new RegExp(`data-testid="statement-aggregator-MXN"(.*?)</tr>`, "s").exec(after)?.[1].replace(/<[^>]+>/g, " ") ?? "";
    assert.match(row, new RegExp(id));
    assert.match(row, /DIFFERENCE/);
    assert.match(after, /data-testid="statement-alert"[^>]*>[^<]*Provider statement differs from our prefunding/);
  });
});
