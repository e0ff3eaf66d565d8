import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customers, partners, payoutMethods, quotes, subscriptions, transfers } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import type { PricedColumns } from "@/lib/payments/pricing/priced-columns";
import type { insertRegisteredTransfer } from "@/lib/payments/transfers/records";

/**
 * Rows the database unit tests build by hand rather than through the API: a partner with no webhook
 * URL (its events are undeliverable at once), a customer and its subscription, and a transfer in
 * registered as quote acceptance creates it (history entry and event included), with the
 * beneficiary and quote rows its foreign keys name.
 */
export interface Owner {
  partnerId: string;
  customerId: string;
  subscriptionId: string;
}

type Tx = Parameters<typeof insertRegisteredTransfer>[0];

/** How long a test transfer stays open before it expires (the 120-minute quote TTL). */
export const TRANSFER_TTL_SECONDS = 7200;

/** A partner (no webhook URL), a verified customer and its subscription. */
export async function newSubscription(db: Db): Promise<Owner> {
  const now = clock.now();
  const partnerId = newId("partner_test");
  const customerId = newId("cus");
  const subscriptionId = newId("sub");
  await db.insert(partners).values({ id: partnerId, name: `Test ${partnerId}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
  await db.insert(customers).values({ id: customerId, status: "VALID", kycStatus: "COMPLETED", createdAt: now, updatedAt: now });
  await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
  return { partnerId, customerId, subscriptionId };
}

const PRICED = {
  originAmount: "100.000000",
  originCurrency: "USD",
  destinationAmount: "1875.000000",
  destinationCurrency: "MXN",
  fxRate: "18.750000",
  principalFee: "2.990000",
  partnerFee: "0.000000",
  totalCustomerCost: "102.990000",
};

/** A VALID beneficiary of `owner` (Ana Lopez, resident in MX, unless `other` says otherwise), created at `now`; its id. */
export async function insertBeneficiary(
  ex: Db | Tx,
  owner: Pick<Owner, "subscriptionId">,
  now: Date,
  other: Partial<typeof beneficiaries.$inferInsert> = {},
): Promise<string> {
  const id = newId("ben");
  await ex.insert(beneficiaries).values({
    id,
    subscriptionId: owner.subscriptionId,
    firstName: "Ana",
    lastName: "Lopez",
    countryOfResidence: "MX",
    relationshipToCustomer: "FAMILY",
    state: "VALID",
    createdAt: now,
    updatedAt: now,
    ...other,
  });
  return id;
}

/**
 * An accepted quote of `owner` with these priced terms, to `existingBeneficiaryId` or to a new
 * VALID beneficiary: the rows a transfer's foreign keys name, for tests that insert a
 * transfer by hand.
 */
export async function insertQuoteRows(
  tx: Tx,
  owner: Owner,
  priced: PricedColumns,
  now: Date,
  existingBeneficiaryId?: string,
): Promise<{ quoteId: string; beneficiaryId: string }> {
  const beneficiaryId = existingBeneficiaryId ?? (await insertBeneficiary(tx, owner, now));
  const quoteId = newId("quo");
  await tx.insert(quotes).values({
    id: quoteId,
    partnerId: owner.partnerId,
    subscriptionId: owner.subscriptionId,
    beneficiaryId,
    pricingMode: "SERVICE_PRICED",
    jti: newId("jti"),
    quoteSeq: 1,
    corridor: `${priced.originCurrency.slice(0, 2)}-${priced.destinationCurrency.slice(0, 2)}`,
    corridorDataVersion: "test",
    payoutMethod: "bank_account",
    corridorType: "bank_account",
    ...priced,
    signedQuote: "test",
    validUntil: addSeconds(now, TRANSFER_TTL_SECONDS),
    acceptedAt: now,
    createdAt: now,
  });
  return { quoteId, beneficiaryId };
}

/** What a test transfer may change: its priced terms (USD 100 to MXN by default), its corridor (US-MX), its expiry (its creation plus the quote TTL). */
export interface TestTransferTerms {
  priced?: PricedColumns;
  corridor?: string;
  expiresAt?: Date;
}

/** A USD 100 to MXN transfer in registered for `owner`, inside the caller's transaction (to a new beneficiary unless one is given). */
export async function insertTestTransfer(tx: Tx, owner: Owner, now: Date, beneficiaryId?: string, terms: TestTransferTerms = {}) {
  // Imported when first used, like the tests did: the domain modules read configuration on load.
  const { insertRegisteredTransfer } = await import("@/lib/payments/transfers/records");
  const priced = terms.priced ?? PRICED;
  const quoteRows = await insertQuoteRows(tx, owner, priced, now, beneficiaryId);
  return insertRegisteredTransfer(
    tx,
    {
      partnerId: owner.partnerId,
      subscriptionId: owner.subscriptionId,
      customerId: owner.customerId,
      ...quoteRows,
      ...priced,
      corridor: terms.corridor ?? "US-MX",
      payoutMethod: "bank_account",
      purposeOfTransfer: "FAMILY_SUPPORT",
      expiresAt: terms.expiresAt ?? addSeconds(now, TRANSFER_TTL_SECONDS),
      createdAt: now,
    },
    now,
  );
}

/**
 * A transfer in registered in a transaction of its own; a new partner, customer and subscription
 * unless `owner` is given, a new beneficiary unless `beneficiaryId` is given.
 */
export async function registeredTransfer(db: Db, owner?: Owner, beneficiaryId?: string) {
  const o = owner ?? (await newSubscription(db));
  const now = clock.now();
  return db.transaction((tx) => insertTestTransfer(tx, o, now, beneficiaryId));
}

/**
 * A quote of `owner` (USD 100 to MXN, service-priced) to `beneficiaryId`, disclosed: what an accept
 * needs. Each step a unit of work of its own, as the routes run them; the customer needs a profile
 * with its residence country.
 */
export async function disclosedQuote(db: Db, owner: Owner, beneficiaryId: string): Promise<{ quoteId: string; disclosureToken: string }> {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { createQuote } = await import("@/lib/payments/quotes/create");
  const { serveDisclosure } = await import("@/lib/payments/quotes/disclosure");
  const [partner] = await db.select().from(partners).where(eq(partners.id, owner.partnerId));
  const quote = await inUnit(
    ({ tx }) =>
      createQuote(tx, {
        partner,
        subscriptionId: owner.subscriptionId,
        customerId: owner.customerId,
        req: { originAmount: "100.00", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId },
        now: clock.now(),
      }),
    { db },
  );
  const disclosure = await inUnit(
    ({ tx }) =>
      serveDisclosure(tx, {
        subscriptionId: owner.subscriptionId,
        customerId: owner.customerId,
        quoteId: quote.quoteId,
        acceptLanguage: null,
        now: clock.now(),
      }),
    { db },
  );
  return { quoteId: quote.quoteId, disclosureToken: disclosure.body.disclosureToken };
}

/** What acceptQuote is given for `owner`'s disclosed quote `q` (the route's input, a family-support purpose, now). */
export function acceptInput(owner: Owner, q: { quoteId: string; disclosureToken: string }) {
  return {
    subscriptionId: owner.subscriptionId,
    customerId: owner.customerId,
    partnerId: owner.partnerId,
    ...q,
    purposeOfTransfer: "FAMILY_SUPPORT",
    now: clock.now(),
  };
}

/** A US-MX CLABE payout method of the beneficiary, stored encrypted as the service stores one; its id. */
export async function insertClabeMethod(tx: Tx, beneficiaryId: string, now: Date, other: Partial<typeof payoutMethods.$inferInsert> = {}): Promise<string> {
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  const id = newId("pm");
  const identifier = "002010077777777771";
  await tx.insert(payoutMethods).values({
    id,
    beneficiaryId,
    methodType: "BANK_TRANSFER",
    corridor: "US-MX",
    destinationIdentifierEncrypted: (await destinationCipher(tx)).encrypt(identifier, id),
    destinationIdentifierMasked: `****${identifier.slice(-4)}`,
    addedAt: now,
    ...other,
  });
  return id;
}

/** A registered transfer of `owner` with a stored CLABE payout method, submitted: its fast-check may run. Its id. */
export async function submittedTransfer(db: Db, owner: Owner): Promise<string> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const beneficiaryId = await insertBeneficiary(tx, owner, now);
    const methodId = await insertClabeMethod(tx, beneficiaryId, now, { destinationKey: newId("dk") });
    const t = await insertTestTransfer(tx, owner, now, beneficiaryId);
    await tx.update(transfers).set({ payoutMethodId: methodId, submittedAt: now }).where(eq(transfers.id, t.id));
    return t.id;
  });
}
