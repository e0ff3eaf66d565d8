import { and, eq, or, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { placeholdersFor, preparedOn } from "@/db/prepared";
import { newId } from "@/db/ids";
import { beneficiaries, customers, partners, quotes, serviceQuoteSeq as serviceQuoteSeqTable } from "@/db/schema";
import { paymentToBeneficiaryCheck } from "../beneficiaries/payment-check";
import { beneficiaryNotFound } from "@/lib/payments/beneficiaries/records";
import { config } from "@/lib/platform/config";
import {
  checkMaximumAmount,
  checkMinimumAmount,
  findCorridor,
  resolvePayoutMethod,
  type Corridor,
  type CorridorTable,
} from "@/lib/payments/corridors/corridors";
import { latestVersionSql, refreshVersions, tableInForce } from "@/lib/payments/corridors/versions";
import { corridorType, quoteTtlSeconds } from "@/lib/payments/corridors/payout-methods";
import { DomainError } from "@/lib/platform/errors";
import { parseMoneyAmount } from "@/lib/platform/money/amount";
import { Decimal } from "@/lib/platform/money/decimal";
import { toWireAmount } from "@/lib/platform/money/format";
import type { Partner } from "@/lib/partners";
import { checkEnvelope } from "@/lib/payments/pricing/envelope";
import type { ReferenceRateProvider } from "@/lib/payments/pricing/reference-rate";
import { referenceRates } from "@/lib/payments/pricing/rate-store";
import { envelopeTermsOf, priceQuote } from "@/lib/payments/pricing/service-pricing";
import { quoteView } from "./records";
import { signingKeySet } from "./service-keys";
import { invalidClaim, type PartnerQuoteClaims } from "./signing/quote-claims";
import { signQuoteClaims } from "./signing/sign-quote";
import { verifyPartnerQuote } from "./signing/verify-partner-quote";

export interface QuoteRequest {
  originAmount: string;
  originCurrency: string;
  destinationCurrency: string;
  beneficiaryId: string;
  payoutMethod?: string;
  partnerQuote?: string;
}

const serviceQuoteSeqName = serviceQuoteSeqTable.seqName;

const fieldInvalid = (field: string, message: string) =>
  new DomainError("validation.fieldInvalid", { message, details: { issues: [{ field, code: "validation.fieldInvalid", message }] } });

/**
 * The beneficiary (as beneficiaryInScope) and, in the same query, the customer's profile and, for
 * a quote the service signs, the next number of its quote sequence (claims' partner_quote_seq):
 * one round trip where there were two; and the highest configuration version number (lib/payments/corridors/versions.ts). The number is taken before the request's other
 * checks; one they refuse leaves a gap, as a rolled-back quote always did (only its order counts).
 */
async function beneficiaryAndProfile(tx: Tx, input: { subscriptionId: string; beneficiaryId: string; customerId: string; serviceSigned: boolean }) {
  const [row] = await preparedOn(tx, "quote_beneficiary_and_profile", (e) =>
    e
      .select({
        beneficiary: beneficiaries,
        profile: sql`(select ${customers.profile} from ${customers} where ${customers.id} = ${sql.placeholder("customerId")})`.mapWith(customers.profile),
        serviceQuoteSeq: sql<string | null>`case when ${sql.placeholder("serviceSigned")}::boolean then nextval(${serviceQuoteSeqName}) end`,
        // The highest configuration version: this process loads the corridors' newer versions it lacks.
        configurationVersion: latestVersionSql(),
      })
      .from(beneficiaries)
      .where(and(eq(beneficiaries.id, sql.placeholder("beneficiaryId")), eq(beneficiaries.subscriptionId, sql.placeholder("subscriptionId"))))
      .prepare("quote_beneficiary_and_profile"),
  ).execute(input);
  if (!row) throw beneficiaryNotFound();
  return row;
}

/** The corridor from the customer's residence to the beneficiary's country (decisions section 6). */
function corridorFor(profile: unknown, beneficiaryCountry: string, req: QuoteRequest, table: CorridorTable): Corridor {
  const residence = (profile as { residenceCountry?: string } | null)?.residenceCountry ?? "";
  const corridor = findCorridor(residence, beneficiaryCountry, table);
  if (!corridor) {
    throw new DomainError("quote.corridorUnavailable", {
      message: `No corridor from ${residence || "the customer's country"} to ${beneficiaryCountry}.`,
      details: { originCountry: residence, destinationCountry: beneficiaryCountry },
    });
  }
  if (req.originCurrency !== corridor.originCurrency) throw fieldInvalid("originCurrency", `This corridor sends ${corridor.originCurrency}.`);
  if (req.destinationCurrency !== corridor.destinationCurrency)
    throw fieldInvalid("destinationCurrency", `This corridor pays out ${corridor.destinationCurrency}.`);
  return corridor;
}

interface QuoteContext {
  partner: Partner;
  subscriptionId: string;
  corridor: Corridor;
  req: QuoteRequest;
  now: Date;
  rates: ReferenceRateProvider;
}

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

/** The service prices and signs the quote (SERVICE_PRICED partners); `seq` is the next of its quote sequence. */
async function servicePricedClaims(input: QuoteContext, seq: number) {
  const priced = priceQuote({
    corridor: input.corridor,
    payoutMethod: input.req.payoutMethod,
    originAmount: input.req.originAmount,
    partnerId: input.partner.id,
    now: input.now,
    rates: input.rates,
  });
  const iat = epoch(input.now);
  const exp = iat + quoteTtlSeconds(priced.corridorType, config());
  const terms = envelopeTermsOf(priced);
  const claims: PartnerQuoteClaims = {
    quote_signature_v1: "v1",
    quote_id: newId("quo"),
    jti: crypto.randomUUID(),
    partner_id: input.partner.id,
    partner_quote_seq: seq,
    subscription_id: input.subscriptionId,
    ...terms,
    beneficiary_country: input.corridor.destinationCountry.alpha2,
    beneficiary_currency: input.corridor.destinationCurrency,
    corridor: input.corridor.code,
    corridor_type: priced.corridorType,
    iat,
    exp,
    issued_at: new Date(iat * 1000).toISOString().replace(".000Z", "Z"),
    expires_at: new Date(exp * 1000).toISOString().replace(".000Z", "Z"),
  };
  const key = (await signingKeySet()).current;
  return { claims, signedQuote: await signQuoteClaims(claims, key.privateKey, key.kid), payoutMethod: priced.payoutMethod };
}

/** Partner quote_id: 1-128 URL-unreserved characters, starting with a letter or digit (the routes' quoteId limit). */
const PARTNER_QUOTE_ID = /^[A-Za-z0-9][A-Za-z0-9_.~-]{0,127}$/;

const binding = (field: string, expected: string, actual: string) =>
  new DomainError("quote.bindingMismatch", { message: `The signed quote's ${field} does not match.`, details: { field, expected, actual } });

/** The partner's signed quote, verified exactly as spec 5.4 says (PARTNER_SIGNED partners). */
async function partnerSignedClaims(tx: Tx, input: QuoteContext) {
  const { corridor, req, now } = input;
  if (!req.partnerQuote)
    throw new DomainError("validation.fieldMissing", {
      message: "partnerQuote is required for this partner.",
      details: { issues: [{ field: "partnerQuote", code: "validation.fieldMissing" }] },
    });
  // The same request rule as service pricing: a positive amount payable in the origin currency
  // (no zero quote, no 100.001 USD). send_amount must equal it, so the signed terms fit too.
  parseMoneyAmount(req.originAmount, corridor.originCurrency, { field: "originAmount" });
  const payoutMethod = resolvePayoutMethod(corridor, req.payoutMethod);
  const type = corridorType(payoutMethod);
  // Lock the partner row: sequence numbers are checked and advanced one quote at a time. NO KEY
  // UPDATE: every transfer insert of the partner checks its foreign key with KEY SHARE, which
  // UPDATE would make wait for this quote.
  const [partner] = await tx.select().from(partners).where(eq(partners.id, input.partner.id)).for("no key update");
  const claims = await verifyPartnerQuote(req.partnerQuote, { jwks: partner.jwks, now, maxTtlSeconds: quoteTtlSeconds(type, config()) });
  // quote_id becomes the quoteId of every later call's path: one that cannot be a path segment
  // (too long for the routes, "..", "/") would make a quote nobody can read, disclose or accept.
  if (!PARTNER_QUOTE_ID.test(claims.quote_id)) throw invalidClaim("claimFormat", "quote_id");
  const expect: [string, string, string[]][] = [
    ["partner_id", claims.partner_id, [partner.id]],
    ["subscription_id", claims.subscription_id, [input.subscriptionId]],
    ["corridor", claims.corridor, [corridor.code]],
    ["corridor_type", claims.corridor_type, [type]],
    ["beneficiary_country", claims.beneficiary_country, [corridor.destinationCountry.alpha2, corridor.destinationCountry.alpha3]],
    ["beneficiary_currency", claims.beneficiary_currency, [corridor.destinationCurrency]],
    ["send_currency", claims.send_currency, [req.originCurrency]],
    ["receive_currency", claims.receive_currency, [req.destinationCurrency]],
  ];
  for (const [field, actual, allowed] of expect) if (!allowed.includes(actual)) throw binding(field, allowed[0], actual);
  if (!new Decimal(claims.send_amount).eq(new Decimal(req.originAmount))) {
    throw new DomainError("quote.amountChanged", {
      message: "originAmount differs from the signed send_amount.",
      details: { signed: claims.send_amount, requested: req.originAmount },
    });
  }
  checkEnvelope(claims, corridor, now, input.rates);
  if (claims.partner_quote_seq <= partner.highestQuoteSeq) {
    throw new DomainError("quote.sequenceGap", {
      message: "partner_quote_seq must be above every sequence number seen.",
      details: { highestSeen: partner.highestQuoteSeq, received: claims.partner_quote_seq },
    });
  }
  const [reused] = await tx
    .select({ id: quotes.id })
    .from(quotes)
    .where(or(eq(quotes.id, claims.quote_id), eq(quotes.jti, claims.jti)))
    .limit(1);
  if (reused) throw new DomainError("quote.invalid", { message: "This quote_id or jti was already used.", details: { failedCheck: "reuse" } });
  await tx.update(partners).set({ highestQuoteSeq: claims.partner_quote_seq }).where(eq(partners.id, partner.id));
  return { claims, signedQuote: req.partnerQuote, payoutMethod };
}

type NewQuote = Required<Omit<typeof quotes.$inferInsert, "acceptedAt" | "transferId">>;

/** The new quote row, answered: prepared once per process, every column a placeholder. */
async function insertQuote(tx: Tx, values: NewQuote) {
  const { shape, set } = placeholdersFor(values);
  const name = `quote_insert:${shape}`;
  const [row] = await preparedOn(tx, name, (e) =>
    e
      .insert(quotes)
      .values(set as unknown as NewQuote)
      .returning()
      .prepare(name),
  ).execute(values);
  return row;
}

/** POST /v1/core/quotes. */
export async function createQuote(tx: Tx, input: { partner: Partner; subscriptionId: string; customerId: string; req: QuoteRequest; now: Date }) {
  if (new Decimal(input.req.originAmount).gt(config().MAX_ORIGIN_AMOUNT)) {
    throw fieldInvalid("originAmount", `The amount is above the maximum of ${config().MAX_ORIGIN_AMOUNT} per transfer.`);
  }
  const partnerSigned = input.partner.pricingMode === "PARTNER_SIGNED";
  const { beneficiary, profile, serviceQuoteSeq, configurationVersion } = await beneficiaryAndProfile(tx, {
    subscriptionId: input.subscriptionId,
    beneficiaryId: input.req.beneficiaryId,
    customerId: input.customerId,
    serviceSigned: !partnerSigned,
  });
  await paymentToBeneficiaryCheck(tx, beneficiary, input.now);
  await refreshVersions(tx, configurationVersion);
  // The version in force when the quote is priced: recorded with it, and its acceptance checks against it.
  const table = tableInForce(input.now);
  const corridor = corridorFor(profile, beneficiary.countryOfResidence, input.req, table);
  // Service-priced and partner-signed alike (a wire-format amount: the contract checked it).
  const amount = new Decimal(input.req.originAmount);
  checkMinimumAmount(corridor, amount);
  checkMaximumAmount(corridor, amount);
  const ctx = { partner: input.partner, subscriptionId: input.subscriptionId, corridor, req: input.req, now: input.now, rates: await referenceRates(tx) };
  if (!partnerSigned && input.req.partnerQuote) throw fieldInvalid("partnerQuote", "This partner's quotes are priced by the service; omit partnerQuote.");
  const signed = partnerSigned ? await partnerSignedClaims(tx, ctx) : await servicePricedClaims(ctx, Number(serviceQuoteSeq));
  const c = signed.claims;
  const row = await insertQuote(tx, {
    id: c.quote_id,
    partnerId: input.partner.id,
    subscriptionId: input.subscriptionId,
    beneficiaryId: beneficiary.id,
    pricingMode: input.partner.pricingMode,
    jti: c.jti,
    quoteSeq: c.partner_quote_seq,
    corridor: corridor.code,
    corridorDataVersion: String(table.version),
    payoutMethod: signed.payoutMethod,
    corridorType: c.corridor_type,
    originAmount: toWireAmount(new Decimal(c.send_amount)),
    originCurrency: c.send_currency,
    destinationAmount: toWireAmount(new Decimal(c.receive_amount)),
    destinationCurrency: c.receive_currency,
    fxRate: c.fx_rate,
    principalFee: toWireAmount(new Decimal(c.principal_fee)),
    partnerFee: toWireAmount(new Decimal(c.partner_fee)),
    totalCustomerCost: toWireAmount(new Decimal(c.total_consumer_cost)),
    signedQuote: signed.signedQuote,
    validUntil: new Date(c.exp * 1000),
    createdAt: input.now,
  });
  return quoteView(row, input.now);
}
