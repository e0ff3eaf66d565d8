/**
 * Payout banks as versioned configuration, on the database: a version's banks (an account by IBAN
 * or by national scheme, CLABE checked) replace the PAYOUT_BANKS setting's from its effective time
 * and not before; a payout file's bank is still found by id after a version drops it; problems are
 * refused at their fields, and the console's form writes and reads the list.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@/db";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
const maker: Operator = { id: "op_banks_maker", email: "banks.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_banks_checker", email: "banks.checker@example.com", name: "Checker", role: "admin" };

/** A Mexican bank holding our account by CLABE (no IBAN in Mexico). */
const BBVA = {
  id: "bbva-mx",
  name: "BBVA Mexico",
  bic: "BCMRMXMMXXX",
  debtorAccount: { scheme: "CLABE", id: "002010077777777771" },
  debtorName: "Remit Ltd",
  currencies: ["MXN"],
  timeZone: "America/Mexico_City",
};

// A database of its own on PostgreSQL: the version published here changes other files' payout banks.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

test("a version's payout banks replace the setting's from its effective time, not before", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, refreshVersions, storedVersion } = await import("@/lib/payments/corridors/versions");
  const { bankById, bankForCurrency } = await import("@/lib/payments/payouts/banks");
  await refreshVersions(db);
  const effectiveAt = new Date(clock.now().getTime() + 3_600_000);
  const document = { ...structuredClone(storedVersion(latestTable().version)!.document), payoutBanks: [BBVA] };
  const input = { document, effectiveAt: effectiveAt.toISOString(), note: "Pay Mexico from BBVA" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  assert.deepEqual([proposal.before?.["payoutBanks.bbva-mx"], proposal.proposed?.["payoutBanks.bbva-mx.debtorAccount.scheme"]], [null, "CLABE"]);
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });
  await refreshVersions(db);

  const before = new Date(effectiveAt.getTime() - 1000);
  const after = new Date(effectiveAt.getTime() + 1000);
  assert.equal(bankForCurrency("MXN", before)?.id, "sandbox", "the setting's (the sandbox bank) until then");
  assert.deepEqual(bankForCurrency("MXN", after)?.debtorAccount, { scheme: "CLABE", id: "002010077777777771" });
  assert.equal(bankForCurrency("PHP", after), undefined, "the version's list replaces the setting's");
  clock.advance(after.getTime() - clock.now().getTime());
  try {
    assert.equal(bankForCurrency("MXN")?.id, "bbva-mx", "in force now");
    assert.equal(bankById("sandbox")?.name, "Sandbox Payout Bank", "a file's bank is found after a version drops it");
  } finally {
    clock.reset();
  }
});

test("payout banks: problems at their fields; the console's form writes and reads the list", async () => {
  const { documentProblems, payoutBanksText, withPayoutBanks } = await import("@/lib/payments/corridors/changes");
  const { seedDocument } = await import("@/lib/payments/corridors/versions");
  const problems = (payoutBanks: unknown) => documentProblems({ ...seedDocument(), payoutBanks }).map((p) => p.field);
  assert.deepEqual(problems([{ ...BBVA, debtorAccount: { scheme: "CLABE", id: "002010077777777772" } }]), ["payoutBanks.0.debtorAccount.id"]);
  assert.deepEqual(problems([BBVA, { ...BBVA, currencies: ["USD"] }]), ["payoutBanks.1.id"]);
  assert.deepEqual(problems([{ ...BBVA, debtorIban: "DE89370400440532013000" }]), ["payoutBanks.0"], "an IBAN or a national account, not both");

  const text = JSON.stringify([BBVA]);
  const doc = withPayoutBanks(seedDocument(), text);
  assert.deepEqual(doc.payoutBanks, [BBVA]);
  assert.deepEqual(JSON.parse(payoutBanksText(doc)), [BBVA]);
  assert.equal("payoutBanks" in withPayoutBanks(doc, ""), false, "empty: the setting applies");
});
