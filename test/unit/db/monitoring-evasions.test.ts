/**
 * The evasions an examiner tried against the default pack (partners in enforce), each written as
 * the evader wrote it: amounts split under the old structuring band, a test payment before the
 * large one to a new beneficiary, one address or mailbox spelled differently by each customer. Each
 * is held now; an ordinary customer's day is not. On PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { freshDb } from "../../support/db";
import { ago, monitoringHelpers } from "../../support/monitoring";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

const { sender, registeredSender, transfer, expectHeld, expectPassed } = monitoringHelpers(() => db);

/** A street of its own for each test (the database may be shared), with the number the evader kept. */
const street = () => `Harbour${newId("x").slice(-6)}`;

describe("structuring, one sender, each transfer just under the old 90% band", () => {
  test("899 USD then 899 USD on one day: the second is held", async () => {
    const s = await sender();
    await expectPassed((await transfer(s, { amount: "899.00", at: ago(5) })).transferId, "structuring");
    await expectHeld((await transfer(s, { amount: "899.00" })).transferId, "structuring");
  });
  test("850 EUR then 850 EUR on one day (ES-CO): the second is held", async () => {
    const s = await sender();
    await expectPassed((await transfer(s, { amount: "850.00", currency: "EUR", at: ago(5) })).transferId, "structuring");
    await expectHeld((await transfer(s, { amount: "850.00", currency: "EUR" })).transferId, "structuring");
  });
  test("899 USD a day, four days running (never two in 24 h): the fourth is held", async () => {
    const s = await sender();
    for (const hours of [75, 50, 25]) await transfer(s, { amount: "899.00", at: ago(hours) });
    await expectHeld((await transfer(s, { amount: "899.00" })).transferId, "structuring");
  });
});

describe("structuring across customers sharing an identifier", () => {
  test("two customers at one address written two ways, 600 USD each on one day: the second is held", async () => {
    const name = street();
    const a = await registeredSender({ identifier: `${newId("a")}@example.com`, address: { addressLine1: `12 ${name} Road`, postalCode: "78701" } });
    const b = await registeredSender({
      identifier: `${newId("b")}@example.com`,
      address: { addressLine1: `12 ${name.toUpperCase()} RD.`, postalCode: "78701-4212" },
    });
    await expectPassed((await transfer(a, { amount: "600.00", at: ago(3) })).transferId, "structuring_shared_identifier");
    await expectHeld((await transfer(b, { amount: "600.00" })).transferId, "structuring_shared_identifier");
  });
  test("two logins to one Gmail mailbox (dots, a plus tag, googlemail.com), 600 USD each on one day: the second is held", async () => {
    const local = newId("jane").slice(-8);
    const a = await registeredSender({ identifier: `Jane.${local}@gmail.com` });
    const b = await registeredSender({ identifier: `jane${local}+remit@googlemail.com` });
    await expectPassed((await transfer(a, { amount: "600.00", at: ago(3) })).transferId, "structuring_shared_identifier");
    await expectHeld((await transfer(b, { amount: "600.00" })).transferId, "structuring_shared_identifier");
  });
  test("the same two transfers by customers sharing nothing pass", async () => {
    const a = await registeredSender({ identifier: `${newId("a")}@example.com`, address: { addressLine1: `12 ${street()} Road`, postalCode: "78701" } });
    const b = await registeredSender({ identifier: `${newId("b")}@example.com`, address: { addressLine1: `14 ${street()} Road`, postalCode: "78701" } });
    await expectPassed((await transfer(a, { amount: "600.00", at: ago(3) })).transferId, "structuring_shared_identifier");
    await expectPassed((await transfer(b, { amount: "600.00" })).transferId, "structuring_shared_identifier");
  });
});

describe("new beneficiary", () => {
  test("a 15 USD test payment, then 990 USD to the same new beneficiary: the 990 is held", async () => {
    const s = await sender();
    const probe = await transfer(s, { amount: "15.00", beneficiaryCreatedAt: ago(2), at: ago(1) });
    await expectPassed(probe.transferId, "new_beneficiary_large_amount");
    await expectHeld((await transfer(s, { amount: "990.00", beneficiaryId: probe.beneficiaryId })).transferId, "new_beneficiary_large_amount");
  });
  test("500 USD, the first transfer, to a beneficiary created 25 h ago (just past the old 24 h): held", async () => {
    await expectHeld((await transfer(await sender(), { amount: "500.00", beneficiaryCreatedAt: ago(25) })).transferId, "new_beneficiary_large_amount");
  });
});

describe("shared identifiers written differently", () => {
  test("three customers at 12 Harbour Road, 12 Harbour Rd. and 12 HARBOUR RD (one postal code): the third is held", async () => {
    const name = street();
    const at = (line: string) => registeredSender({ identifier: `${newId("c")}@example.com`, address: { addressLine1: line, postalCode: "78701" } });
    await at(`12 ${name} Road`);
    await expectPassed((await transfer(await at(`12 ${name} Rd.`))).transferId, "shared_address");
    await expectHeld((await transfer(await at(`12 ${name.toUpperCase()} RD`))).transferId, "shared_address");
  });
  test("three logins to one Gmail mailbox: the third is held", async () => {
    const local = newId("ana").slice(-8);
    await registeredSender({ identifier: `ana.${local}@gmail.com` });
    await expectPassed((await transfer(await registeredSender({ identifier: `ANA${local}@gmail.com` }))).transferId, "shared_email");
    await expectHeld((await transfer(await registeredSender({ identifier: `a.na${local}+2@googlemail.com` }))).transferId, "shared_email");
  });
});

for (const [standing, createdHoursAgo] of [
  ["of a month's standing", 24 * 30],
  ["added an hour before", 1],
] as const) {
  test(`an ordinary customer's day: 300 EUR, then 200 EUR, to a beneficiary ${standing}: neither is flagged`, async () => {
    const s = await sender();
    const paid = await transfer(s, { amount: "300.00", currency: "EUR", beneficiaryCreatedAt: ago(createdHoursAgo), at: ago(0.5) });
    const first = await expectPassed(paid.transferId, "structuring");
    const second = await expectPassed((await transfer(s, { amount: "200.00", currency: "EUR", beneficiaryId: paid.beneficiaryId })).transferId, "structuring");
    assert.deepEqual([first.fired, second.fired], [[], []]);
    assert.deepEqual([first.evaluation.outcome, second.evaluation.outcome], ["pass", "pass"]);
  });
}
