/**
 * Statements per write: submit and confirm read what they check in the statement that
 * locks the transfer. Counted on the driver: every statement the unit of work sends on its
 * transaction's connection, its effects' statement at commit included (BEGIN and COMMIT apart).
 * Before: submit 4 (5 naming a stored payout method), confirm 7, quote create 3, cancel before
 * funding 5, accept 5 (its locking read, the subscription's lock and the usage sums, the transfer's
 * insert, the commit's); then confirm 5 (the device nonce's insert a statement of its own, now sent
 * with the effects at commit). Accept is 4 since its beneficiary is locked first, in its own
 * statement sent with the others (test/unit/db/lock-order.test.ts says why). PGlite, or PostgreSQL
 * with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { eq } from "drizzle-orm";
import { customers, devices, partners } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { signCompact } from "../../support/jws";
import { freshDb } from "../../support/db";
import { acceptInput, disclosedQuote, newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";
import { countedUnit } from "./support/counted";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

/** Runs `work` as a unit of work, counting the statements its transaction sends (support/counted.ts). */
const counted = <T>(work: (tx: Tx) => Promise<T>) => countedUnit(db, work);

const CLABES = ["002010077777777771", "032180000118359719", "014027000005555558"];

async function submit(owner: Owner, transferId: string, payoutMethod: { destinationIdentifier?: string; payoutMethodId?: string }, beneficiaryId: string) {
  const { submitTransfer } = await import("@/lib/payments/transfers/submit");
  return counted((tx) =>
    submitTransfer(tx, {
      subscriptionId: owner.subscriptionId,
      transferId,
      beneficiaryId,
      payoutMethod: { methodType: "BANK_TRANSFER", ...payoutMethod },
      purposeOfTransfer: "FAMILY_SUPPORT",
      now: clock.now(),
    }),
  );
}

describe("statements per write", () => {
  it("submit: the transfer, its quote's validity, its beneficiary and the named payout method in the locking statement, then the commit's", async () => {
    const owner = await newSubscription(db);
    // The first submit of the process reads the service secrets (cached afterwards): not counted.
    const warm = await registeredTransfer(db, owner);
    const first = await submit(owner, warm.id, { destinationIdentifier: CLABES[0] }, warm.beneficiaryId);

    const fresh = await registeredTransfer(db, owner);
    const withIdentifier = await submit(owner, fresh.id, { destinationIdentifier: CLABES[1] }, fresh.beneficiaryId);
    assert.equal(withIdentifier.value.transferStatus, "registered");
    assert.equal(withIdentifier.value.payoutMethod.destinationIdentifierMasked.slice(-4), CLABES[1].slice(-4));
    assert.equal(withIdentifier.statements, 2, "one locking read, one statement of effects at commit");

    // A stored payout method of the same beneficiary, named by its id.
    const again = (await registeredTransfer(db, owner, warm.beneficiaryId)).id;
    const stored = await submit(owner, again, { payoutMethodId: first.value.payoutMethod.payoutMethodId }, warm.beneficiaryId);
    assert.equal(stored.value.payoutMethod.payoutMethodId, first.value.payoutMethod.payoutMethodId);
    assert.equal(stored.statements, 2, "the stored payout method is read by the locking statement");

    // The same errors: another subscription's transfer, a method of another beneficiary.
    const other = await newSubscription(db);
    await assert.rejects(submit(other, again, { destinationIdentifier: CLABES[2] }, warm.beneficiaryId), { code: "transfer.notFound" });
    const unstored = await registeredTransfer(db, owner);
    await assert.rejects(submit(owner, unstored.id, { payoutMethodId: first.value.payoutMethod.payoutMethodId }, unstored.beneficiaryId), {
      code: "validation.fieldInvalid",
    });
  });

  it("quote create: the beneficiary, the customer's profile and the service's quote number in one statement, then the insert", async () => {
    const owner = await newSubscription(db);
    await db
      .update(customers)
      .set({ profile: { residenceCountry: "USA" } })
      .where(eq(customers.id, owner.customerId));
    const [partner] = await db.select().from(partners).where(eq(partners.id, owner.partnerId));
    const beneficiaryId = (await registeredTransfer(db, owner)).beneficiaryId;
    const { createQuote } = await import("@/lib/payments/quotes/create");
    const quote = (originAmount: string) =>
      counted((tx) =>
        createQuote(tx, {
          partner,
          subscriptionId: owner.subscriptionId,
          customerId: owner.customerId,
          req: { originAmount, originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId },
          now: clock.now(),
        }),
      );
    const first = await quote("100.00");
    const second = await quote("120.00");
    assert.equal(second.statements, 2, "one read (with the sequence number), one insert");
    assert.equal(Number(second.value.originAmount), 120);
    const seq = (q: { signedQuote: string }) =>
      (JSON.parse(Buffer.from(q.signedQuote.split(".")[1], "base64url").toString()) as { partner_quote_seq: number }).partner_quote_seq;
    assert.ok(seq(second.value) > seq(first.value), "each quote the service signs has a higher partner_quote_seq");
  });

  it("accept: the quote, its disclosure, its beneficiary and the limit context under the subscription's lock, the usage sums, then the commit's (the transfer's insert in it)", async () => {
    const owner = await newSubscription(db);
    await db
      .update(customers)
      .set({ profile: { residenceCountry: "USA" } })
      .where(eq(customers.id, owner.customerId));
    const beneficiaryId = (await registeredTransfer(db, owner)).beneficiaryId;
    const { acceptQuote } = await import("@/lib/payments/quotes/accept");
    const disclosed = () => disclosedQuote(db, owner, beneficiaryId);
    const accept = (q: { quoteId: string; disclosureToken: string }) => counted((tx) => acceptQuote(tx, acceptInput(owner, q)));
    await accept(await disclosed());

    const q = await disclosed();
    const accepted = await accept(q);
    assert.equal(accepted.value.transferStatus, "registered");
    assert.equal(accepted.statements, 4, "the beneficiary's lock, the locking read, the usage sums, one statement of effects at commit");
    assert.equal(accepted.roundTrips, 2, "the locking read and the usage sums sent behind the beneficiary's lock");
    // The transfer, its first history entry and the quote's link were written by the commit's statement.
    const { transfers, transferStateHistory, quotes } = await import("@/db/schema");
    const [transfer] = await db.select().from(transfers).where(eq(transfers.id, accepted.value.transferId));
    assert.equal(transfer.state, "registered");
    assert.equal(transfer.quoteId, q.quoteId);
    assert.equal(transfer.limitAmount, "100.000000");
    const history = await db.select().from(transferStateHistory).where(eq(transferStateHistory.transferId, transfer.id));
    assert.deepEqual(
      history.map((h) => [h.seq, h.state]),
      [[1, "registered"]],
    );
    const [quote] = await db.select().from(quotes).where(eq(quotes.id, q.quoteId));
    assert.equal(quote.transferId, transfer.id);
    // The same refusals: the quote already accepted, an unknown disclosure token.
    await assert.rejects(
      accept(q),
      (err: { code: string; details?: { failedCheck?: string } }) => err.code === "quote.invalid" && err.details?.failedCheck === "alreadyAccepted",
    );
    const other = await disclosed();
    await assert.rejects(
      accept({ ...other, disclosureToken: "dt_unknown" }),
      (err: { code: string; details?: { failedCheck?: string } }) => err.details?.failedCheck === "disclosureToken",
    );
  });

  it("cancel before funding: the lock and the pending network cancellation in one round trip, the move, the commit's; no funding sessions read", async () => {
    const owner = await newSubscription(db);
    const transfer = await registeredTransfer(db, owner);
    const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
    const canceled = await counted((tx) =>
      cancelTransfer(tx, { subscriptionId: owner.subscriptionId, transferId: transfer.id, cancellationReason: "CUSTOMER_REQUEST", now: clock.now() }),
    );
    assert.equal(canceled.value.transferStatus, "aborted");
    assert.equal(canceled.statements, 4);
    assert.equal(canceled.roundTrips, 3, "the lock and the pending cancellation's read sent together");
  });

  it("confirm: the customer's lock, then the transfer with the named device and the lockout counts, the nonce, the move, the commit's", async () => {
    const owner = await newSubscription(db);
    const transfer = await registeredTransfer(db, owner);
    const device = await insertDevice(owner);
    const challenge = `chl_${randomUUID()}`;
    const { transitionTransfer } = await import("@/lib/payments/transfers/records");
    const { addSeconds } = await import("@/lib/platform/clock");
    await db.transaction(async (tx) => {
      await transitionTransfer(tx, transfer, "fastCheck.passed", clock.now(), { challenge, challengeExpiresAt: addSeconds(clock.now(), 300) });
    });
    const { confirmTransfer } = await import("@/lib/payments/transfers/confirm");
    const confirm = (assertion: string) =>
      counted((tx) =>
        confirmTransfer(tx, {
          subscriptionId: owner.subscriptionId,
          customerId: owner.customerId,
          transferId: transfer.id,
          deviceAssertion: assertion,
          now: clock.now(),
        }),
      );
    const claims = {
      transfer_id: transfer.id,
      amount: transfer.originAmount,
      currency: transfer.originCurrency,
      beneficiary_id: transfer.beneficiaryId,
      device_id: device.id,
      nonce: randomUUID(),
      challenge,
      iat: Math.floor(clock.now().getTime() / 1000),
    };
    const sign = (c: object) => signCompact(JSON.stringify({ alg: "RS256", kid: device.kid, typ: "JWT" }), JSON.stringify(c), device.privateKey);

    // A wrong challenge fails verification and is counted against the customer and the device.
    const spent = randomUUID();
    await assert.rejects(confirm(sign({ ...claims, nonce: spent, challenge: "chl_other" })), { code: "device.assertionInvalid" });
    // Its nonce was spent all the same (written at that failure's commit): a replay is refused as such.
    await assert.rejects(confirm(sign({ ...claims, nonce: spent })), (err: { code: string; details?: { failedCheck?: string } }) => {
      assert.equal(err.code, "device.assertionInvalid");
      assert.equal(err.details?.failedCheck, "freshness");
      return true;
    });
    const done = await confirm(sign(claims));
    assert.equal(done.value.transferStatus, "funding");
    assert.equal(done.statements, 4, "customer lock, locking read (the nonce's use with it), transition, effects at commit (the nonce's insert in it)");
    assert.equal(done.roundTrips, 3, "the customer's lock and the locking read sent together");
  });

  it("confirm: five failures lock the customer out before the assertion is verified", async () => {
    const owner = await newSubscription(db);
    const transfer = await registeredTransfer(db, owner);
    const device = await insertDevice(owner);
    const { transitionTransfer } = await import("@/lib/payments/transfers/records");
    await db.transaction((tx) => transitionTransfer(tx, transfer, "fastCheck.passed", clock.now()));
    const { confirmTransfer } = await import("@/lib/payments/transfers/confirm");
    const bad = () =>
      signCompact(JSON.stringify({ alg: "RS256", kid: device.kid, typ: "JWT" }), JSON.stringify({ transfer_id: "trf_other" }), device.privateKey);
    const confirm = () =>
      counted((tx) =>
        confirmTransfer(tx, {
          subscriptionId: owner.subscriptionId,
          customerId: owner.customerId,
          transferId: transfer.id,
          deviceAssertion: bad(),
          now: clock.now(),
        }),
      );
    for (let i = 0; i < 5; i++) await assert.rejects(confirm(), { code: "device.assertionInvalid" });
    await assert.rejects(confirm(), (err: { code: string; retryAfterSeconds?: number }) => {
      assert.equal(err.code, "device.assertionLockout");
      assert.ok((err.retryAfterSeconds ?? 0) > 0);
      return true;
    });
  });
});

/** An ACTIVE device of `owner` with a new RSA key; kid is the key's RFC 7638 thumbprint. */
async function insertDevice(owner: Owner) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = publicKey.export({ format: "jwk" }) as { kty: string; n: string; e: string };
  const publicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e };
  const kid = createHash("sha256")
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest("base64url");
  const id = newId("dev");
  const now = clock.now();
  await db.insert(devices).values({ id, subscriptionId: owner.subscriptionId, kid, publicJwk, status: "ACTIVE", registeredAt: now, createdAt: now });
  return { id, kid, privateKey };
}
