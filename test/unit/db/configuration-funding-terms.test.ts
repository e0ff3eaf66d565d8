/**
 * Funding windows and collection accounts as versioned configuration, on the database: a version
 * from an effective time gives new card sessions its window, and bank transfers its account and
 * business days, from that time and not before (the settings' until then); a statement of its
 * account is imported as ours beside the setting's; its problems are refused at their fields, and
 * the console's form writes and reads them.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@/db";
import { addSeconds, clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
const maker: Operator = { id: "op_fundterms_maker", email: "fundterms.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_fundterms_checker", email: "fundterms.checker@example.com", name: "Checker", role: "admin" };

/** The version's effective time: Monday 4 January 2027, noon (a proposal's effective time may not be past). */
const EFFECTIVE = new Date("2027-01-04T12:00:00Z");
const LONDON = { iban: "GB33BUKB20201555555555", bic: "BUKBGB22", name: "Remit Ltd Client Money", currencies: ["USD"], timeZone: "Europe/London" };
/** The sandbox's collection account (COLLECTION_ACCOUNT_* unset): German, in UTC, EUR, GBP and USD. */
const SANDBOX_IBAN = "DE89370400440532013000";

// A database of its own on PostgreSQL: the version published here changes other files' funding.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
  owner = await newSubscription(db);
});
after(() => close());

/** A US-MX transfer confirmed at `at`: its funding session (the API's answer). */
async function confirmedAt(at: Date) {
  const { transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession } = await import("@/lib/payments/transfers/funding");
  return db.transaction(async (tx) => {
    const row = await insertTestTransfer(tx, owner, at);
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", at), "confirm", at, { confirmedAt: at });
    return openFundingSession(tx, funding, at);
  });
}

test("a version's card window, bank-transfer window and collection account apply from its effective time, not before", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, refreshVersions, storedVersion } = await import("@/lib/payments/corridors/versions");
  await refreshVersions(db);
  const document = {
    ...structuredClone(storedVersion(latestTable().version)!.document),
    funding: { windows: { CARD: { minutes: 15 }, BANK_TRANSFER: { businessDays: 1 } }, collectionAccounts: [LONDON] },
  };
  const input = { document, effectiveAt: EFFECTIVE.toISOString(), note: "Collect dollars in London" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  // The approver reads each funding term at its field (no quote to preview: no corridor changed).
  assert.deepEqual([proposal.before?.["funding.windows.CARD.minutes"], proposal.proposed?.["funding.windows.CARD.minutes"]], [null, "15"]);
  assert.equal(proposal.proposed?.[`funding.collectionAccounts.${LONDON.iban}.timeZone`], "Europe/London");
  assert.equal(Object.keys(proposal.proposed ?? {}).filter((k) => k.startsWith("preview")).length, 0);
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });

  const { chooseBankTransfer } = await import("@/lib/payments/transfers/bank-transfer");
  const { lockFundingSession } = await import("@/lib/payments/transfers/funding");
  const { bankTransferDeadline } = await import("@/lib/payments/transfers/funding-window");
  const choose = (fundingSessionId: string, at: Date) =>
    inUnit(async ({ tx }) => chooseBankTransfer(tx, (await lockFundingSession(tx, fundingSessionId))!, at), { db });

  // A minute before: the settings (30 minutes; the sandbox account, two business days of its calendar).
  const before = new Date(EFFECTIVE.getTime() - 60_000);
  const early = await confirmedAt(before);
  assert.equal(early.expiresAt, addSeconds(before, 1800).toISOString());
  const old = await choose(early.fundingSessionId, before);
  assert.equal(old.collectionAccount.iban, SANDBOX_IBAN);
  assert.equal(old.payBy, bankTransferDeadline({ country: "DE", timeZone: "UTC" }, before, 2).toISOString());

  // A minute after: the version's (15 minutes; London, to the end of Tuesday 5 January there).
  const after = new Date(EFFECTIVE.getTime() + 60_000);
  const late = await confirmedAt(after);
  assert.equal(late.expiresAt, addSeconds(after, 900).toISOString());
  const now = await choose(late.fundingSessionId, after);
  assert.deepEqual(now.collectionAccount, { iban: LONDON.iban, bic: LONDON.bic, name: LONDON.name });
  assert.equal(now.payBy, "2027-01-06T00:00:00.000Z");

  // Statements of both accounts are ours (a payment told to go to the old one still arrives there); another's is refused.
  const { refuseOtherAccounts } = await import("@/lib/payments/reconciliation/import");
  const { collectionIbans } = await import("@/lib/payments/corridors/funding-terms");
  const ibans = await collectionIbans(db);
  const statement = (account: string) => ({ messageId: "msg", accounts: [account], credits: [], ignored: 0, closingBalances: [] });
  refuseOtherAccounts(statement(LONDON.iban), ibans);
  refuseOtherAccounts(statement(SANDBOX_IBAN), ibans);
  assert.throws(
    () => refuseOtherAccounts(statement("FR1420041010050500013M02606"), ibans),
    /not a collection account \(GB\S+, DE\S+|not a collection account \(DE\S+, GB\S+/,
  );
});

test("funding terms: problems at their fields; the console's form writes and reads them", async () => {
  const { documentProblems, fundingTexts, withFunding } = await import("@/lib/payments/corridors/changes");
  const { seedDocument } = await import("@/lib/payments/corridors/versions");
  const problems = (funding: unknown) => documentProblems({ ...seedDocument(), funding }).map((p) => p.field);
  assert.deepEqual(problems({ collectionAccounts: [{ ...LONDON, iban: "GB00BUKB20201555555555" }] }), ["funding.collectionAccounts.0.iban"]);
  assert.deepEqual(problems({ collectionAccounts: [{ ...LONDON, timeZone: "Europe/Londres" }] }), ["funding.collectionAccounts.0.timeZone"]);
  assert.deepEqual(
    problems({ collectionAccounts: [LONDON, { ...LONDON, iban: SANDBOX_IBAN }] }),
    ["funding.collectionAccounts.1.currencies.0"],
    "one account per currency",
  );
  assert.deepEqual(problems({ windows: { BANK_TRANSFER: { businessDays: 0 } } }), ["funding.windows.BANK_TRANSFER.businessDays"]);

  const doc = withFunding(seedDocument(), {
    cardMinutes: "15",
    bankTransferBusinessDays: "",
    collectionAccounts: "GB33 BUKB 2020 1555 5555 55; bukbgb22; USD, GBP; Europe/London; Remit Ltd",
  });
  assert.deepEqual(doc.funding, {
    windows: { CARD: { minutes: 15 } },
    collectionAccounts: [{ iban: "GB33BUKB20201555555555", bic: "BUKBGB22", name: "Remit Ltd", currencies: ["USD", "GBP"], timeZone: "Europe/London" }],
  });
  assert.deepEqual(documentProblems(doc), []);
  assert.deepEqual(fundingTexts(doc), {
    cardMinutes: "15",
    bankTransferBusinessDays: "",
    collectionAccounts: "GB33BUKB20201555555555; BUKBGB22; USD, GBP; Europe/London; Remit Ltd",
  });
  assert.equal(
    "funding" in withFunding(doc, { cardMinutes: "", bankTransferBusinessDays: "", collectionAccounts: "" }),
    false,
    "nothing left: the settings apply",
  );
  assert.deepEqual(
    documentProblems(withFunding(seedDocument(), { cardMinutes: "thirty", bankTransferBusinessDays: "", collectionAccounts: "" })).map((p) => p.field),
    ["funding.windows.CARD.minutes"],
  );
});
