/**
 * Transaction monitoring through the API ("Done when"), the demo partner switched to
 * enforce with PUT /v1/sandbox/partner {"monitoring": "enforce"} (and back to shadow after, so the
 * other files stay deterministic): two transfers each under the threshold that reach it within
 * 24 h → the second goes onreview; a third distinct customer paying a destination identifier two
 * others paid this week → onreview; and nothing about rules, typologies, cases, reports or scores in any body a
 * partner can read of a held transfer and its customer (no tipping off).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { freshClabe } from "../../support/clabe";
import { acceptTransfer, awaitFastCheck, call, putPartner, submit, submitBody, validBeneficiaryId, validCustomer, type Customer } from "../support";

before(async () => {
  const settings = await putPartner({ monitoring: "enforce" });
  assert.equal((settings as unknown as { monitoring: string }).monitoring, "enforce");
});
after(async () => {
  await putPartner({ monitoring: "shadow" });
});

/** A VALID customer at an address of their own (three customers at one address are a typology too). */
const customer = () =>
  validCustomer({
    residenceAddress: { addressLine1: `${randomUUID().slice(0, 8)} Congress Ave`, city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
  });

/** A transfer of `amount` USD to `beneficiaryId` at `clabe`, submitted; its state after the fast-check. */
async function send(c: Customer, beneficiaryId: string, amount: string, clabe: string) {
  const { transferId } = await acceptTransfer(c, beneficiaryId, { originAmount: amount });
  const res = await submit(c, transferId, submitBody(beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: clabe }));
  assert.equal(res.status, 202, res.text);
  return { transferId, transfer: await awaitFastCheck(c, transferId) };
}

let held: { c: Customer; transferId: string; beneficiaryId: string } | undefined;

test("structuring: 400 then 600 USD within 24 h (each under the 1,000 review threshold, together at it): the first validated, the second onreview", async () => {
  const c = await customer();
  const beneficiaryId = await validBeneficiaryId(c);
  const clabe = freshClabe();
  // The beneficiary is new: what it is sent in its first week (1,000 here) is a typology too.
  assert.equal((await send(c, beneficiaryId, "400.000000", clabe)).transfer.transferStatus, "validated");
  const second = await send(c, beneficiaryId, "600.000000", clabe);
  assert.equal(second.transfer.transferStatus, "onreview", JSON.stringify(second.transfer));
  assert.deepEqual(
    second.transfer.stateHistory.map((h: { reasonCode: string }) => h.reasonCode),
    ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_REVIEW"],
  );
  held = { c, transferId: second.transferId, beneficiaryId };
});

test("many senders, one destination: the third distinct customer paying an identifier two others paid this week goes onreview", async () => {
  const clabe = freshClabe();
  const states: string[] = [];
  for (let i = 0; i < 3; i++) {
    const c = await customer();
    states.push((await send(c, await validBeneficiaryId(c), "100.000000", clabe)).transfer.transferStatus);
  }
  assert.deepEqual(states, ["validated", "validated", "onreview"]);
});

/** Words that would tip a partner off (whole words, any case). */
const TELLTALE = /\b(rules?|typolog\w*|cases?|reports?|scores?|monitoring|structuring|evaluations?|alerts?|suspicious|snooz\w*|shadow)\b/i;

function findTelltale(value: unknown, path = "$"): string[] {
  if (typeof value === "string") return TELLTALE.test(value) ? [`${path}: ${value}`] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => findTelltale(v, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [...(TELLTALE.test(k) ? [`${path}.${k} (key)`] : []), ...findTelltale(v, `${path}.${k}`)]);
  }
  return [];
}

test("no tipping off: every partner-visible body of the held transfer and its customer reads onreview / TRF_CHECK_REVIEW and nothing more", async () => {
  assert.ok(held, "the structuring test held a transfer");
  const { c, transferId, beneficiaryId } = held;
  const paths = [
    `/v1/core/transfers/${transferId}`,
    "/v1/core/transfers",
    "/v1/core/events?limit=100",
    "/v1/core/profile",
    "/v1/core/beneficiaries",
    `/v1/core/beneficiaries/${beneficiaryId}`,
  ];
  for (const path of paths) {
    const res = await call("GET", path, { token: c.token });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    assert.deepEqual(findTelltale(res.body), [], `${path} says nothing of monitoring`);
  }
  const detail = (await call("GET", `/v1/core/transfers/${transferId}`, { token: c.token })).body;
  assert.equal(detail.transferStatus, "onreview");
  const events = (await call("GET", "/v1/core/events?limit=100", { token: c.token })).body;
  assert.ok(JSON.stringify(events).includes("TRF_CHECK_REVIEW") || JSON.stringify(events).includes("onreview"), "the events carry the hold as onreview");
});
