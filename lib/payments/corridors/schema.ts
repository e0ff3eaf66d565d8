/**
 * Shape and consistency rules of a corridor data file (data/corridors/vN.json). The file is
 * checked once at load, so a typo in fees or country codes stops the process at start instead
 * of mispricing a transfer.
 */
import { isValidBIC, isValidIBAN } from "ibantools";
import { z } from "zod";
import countries from "@/lib/platform/i18n/iso-countries";
import { BANK_ACCOUNT_FORMATS } from "@/lib/payments/payout-identifiers/method-types";
import { payoutBankSchema } from "@/lib/platform/config/payout-banks";
import { requirementSchema } from "@/lib/payments/payout-identifiers/requirement-schema";
import { Decimal, isWireDecimal } from "@/lib/platform/money/decimal";
import { fitsMinorUnit } from "@/lib/platform/money/format";
import { isCurrencyCode } from "@/lib/platform/money/currency";
import { LIMIT_WINDOWS, VERIFICATION_TIERS, type LimitWindow, type TierLimits, type VerificationTier } from "@/lib/payments/limits/tiers";
import { PAYOUT_METHODS } from "./payout-methods";
import { FUNDING_METHODS } from "./funding-methods";

const decimal = z
  .string()
  // abort: the corridor-level checks below must never see an unparsed string.
  .refine(isWireDecimal, { message: "expected an unsigned decimal string such as 2.99", abort: true })
  .transform((s) => new Decimal(s));

const country = z.strictObject({
  alpha2: z.string().regex(/^[A-Z]{2}$/),
  alpha3: z.string().regex(/^[A-Z]{3}$/),
});

/** A partner's id as the partners table writes it (a margin for an unknown id would never apply). */
const partnerId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { message: "expected a partner id" });

/**
 * One band of the principal fee: from `fromOriginAmount` (inclusive) up to the next band's, the
 * fee is `fee`. Below the first band the corridor's principalFee applies.
 */
const feeBand = z.strictObject({ fromOriginAmount: decimal, fee: decimal });

const currency = z.string().refine(isCurrencyCode, { message: "expected an ISO 4217 currency code", abort: true });

/** Margin kept between the FX tolerance and the widest sandbox rate swing (see below). */
const TOLERANCE_MARGIN = new Decimal("0.0005");

const corridor = z
  .strictObject({
    code: z.string().regex(/^[A-Z]{2}-[A-Z]{2}$/),
    originCountry: country,
    destinationCountry: country,
    originCurrency: currency,
    destinationCurrency: currency,
    payoutMethods: z.array(z.enum(PAYOUT_METHODS)).min(1),
    /** How a customer may pay for a transfer on the corridor; absent: every method (FUNDING_METHODS). */
    fundingMethods: z.array(z.enum(FUNDING_METHODS)).min(1).optional(),
    /** The principal fee below the first band of principalFeeBands (the only fee without bands). */
    principalFee: decimal,
    /** Larger amounts' fees, ascending by fromOriginAmount; absent: principalFee at every amount. */
    principalFeeBands: z.array(feeBand).optional(),
    /** The smallest originAmount quoted: below it the fee would eat the transfer. */
    minimumOriginAmount: decimal,
    /** The largest originAmount quoted on the corridor (MAX_ORIGIN_AMOUNT caps every corridor); absent: no corridor maximum. */
    maximumOriginAmount: decimal.optional(),
    /**
     * What service pricing takes off the reference rate (a fraction: 0.01 = the customer gets 1%
     * fewer destination units); absent: 0. Partner-signed quotes set their own rate.
     */
    fxMargin: decimal.optional(),
    /** A partner's own margin on this corridor (by partner id), in place of fxMargin. */
    partnerFxMargins: z.record(partnerId, decimal).optional(),
    partnerFeeCap: decimal,
    fxTolerance: decimal,
    reviewThreshold: decimal,
    referenceRate: z.strictObject({ source: z.literal("sandbox"), mid: decimal, amplitude: decimal }),
    bankAccount: z.strictObject({ format: z.enum(BANK_ACCOUNT_FORMATS), description: z.string().min(1) }),
  })
  .superRefine((c, ctx) => {
    const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    for (const key of ["originCountry", "destinationCountry"] as const) {
      if (countries.alpha2ToAlpha3(c[key].alpha2) !== c[key].alpha3) problem([key], "alpha-2 and alpha-3 name different countries");
    }
    if (c.code !== `${c.originCountry.alpha2}-${c.destinationCountry.alpha2}`) {
      problem(["code"], "code must be origin alpha-2, hyphen, destination alpha-2 (spec 2.1)");
    }
    if (new Set(c.payoutMethods).size !== c.payoutMethods.length) problem(["payoutMethods"], "duplicate payout method");
    if (c.fundingMethods && new Set(c.fundingMethods).size !== c.fundingMethods.length) problem(["fundingMethods"], "duplicate funding method");
    // Fees and the review threshold are origin-currency money: they must be chargeable as is.
    for (const key of ["principalFee", "minimumOriginAmount", "partnerFeeCap", "reviewThreshold"] as const) {
      if (!fitsMinorUnit(c[key], c.originCurrency)) problem([key], `more decimals than ${c.originCurrency} has`);
    }
    // The fee may not be most of what is sent; and a minimum above the review threshold would review every transfer.
    if (c.minimumOriginAmount.lte(c.principalFee)) problem(["minimumOriginAmount"], "must exceed principalFee");
    if (c.minimumOriginAmount.gte(c.reviewThreshold)) problem(["minimumOriginAmount"], "must be below reviewThreshold");
    if (c.fxTolerance.isZero() || c.fxTolerance.gt("0.1")) problem(["fxTolerance"], "must be in (0, 0.1]");
    if (c.maximumOriginAmount !== undefined) {
      if (!fitsMinorUnit(c.maximumOriginAmount, c.originCurrency)) problem(["maximumOriginAmount"], `more decimals than ${c.originCurrency} has`);
      if (c.maximumOriginAmount.lte(c.minimumOriginAmount)) problem(["maximumOriginAmount"], "must exceed minimumOriginAmount");
    }
    // Each band: chargeable amounts, above the minimum and the one before, its fee below the amounts it applies to.
    (c.principalFeeBands ?? []).forEach((band, i, bands) => {
      for (const key of ["fromOriginAmount", "fee"] as const) {
        if (!fitsMinorUnit(band[key], c.originCurrency)) problem(["principalFeeBands", i, key], `more decimals than ${c.originCurrency} has`);
      }
      const floor = i === 0 ? c.minimumOriginAmount : bands[i - 1].fromOriginAmount;
      if (band.fromOriginAmount.lte(floor)) {
        problem(["principalFeeBands", i, "fromOriginAmount"], i === 0 ? "must exceed minimumOriginAmount" : "must exceed the previous band's fromOriginAmount");
      }
      if (band.fee.gte(band.fromOriginAmount)) problem(["principalFeeBands", i, "fee"], "must be below the band's fromOriginAmount");
    });
    if (c.referenceRate.mid.isZero()) problem(["referenceRate", "mid"], "must be positive");
    if (c.referenceRate.amplitude.gt("0.01")) problem(["referenceRate", "amplitude"], "must be at most 0.01");
    // The reference rate can move by 2 x amplitude between pricing and acceptance; the tolerance
    // must cover that, or a quote the service priced itself would breach its own envelope.
    if (c.fxTolerance.minus(c.referenceRate.amplitude.times(2)).lt(TOLERANCE_MARGIN)) {
      problem(["fxTolerance"], "must exceed twice the reference-rate amplitude by at least 0.0005");
    }
    // A margin moves the service's rate off the reference: with the swing above it must still fit
    // the tolerance, or every service-priced quote of the corridor would breach at acceptance.
    const margins: [(string | number)[], Decimal][] = [
      ...(c.fxMargin === undefined ? [] : [[["fxMargin"], c.fxMargin] as [(string | number)[], Decimal]]),
      ...Object.entries(c.partnerFxMargins ?? {}).map(([id, m]) => [["partnerFxMargins", id], m] as [(string | number)[], Decimal]),
    ];
    for (const [path, margin] of margins) {
      if (c.fxTolerance.minus(c.referenceRate.amplitude.times(2)).minus(margin).lt(TOLERANCE_MARGIN)) {
        problem(path, "with twice the reference-rate amplitude, must stay below fxTolerance by at least 0.0005");
      }
    }
  });

/** Corridor codes are unique within a document: findCorridor looks them up by country pair (= code). */
function uniqueCodes(doc: { corridors: { code: string }[] }, ctx: z.RefinementCtx) {
  const codes = doc.corridors.map((c) => c.code);
  codes.forEach((code, i) => {
    if (codes.indexOf(code) !== i) ctx.addIssue({ code: "custom", path: ["corridors", i, "code"], message: "duplicate corridor" });
  });
}

const corridors = z.array(corridor).min(1);

/** A limit: a positive amount, in whole cents at most (counted in each partner's limit currency). */
const limitAmount = z.string().refine((s) => isWireDecimal(s) && !new Decimal(s).isZero() && new Decimal(s).decimalPlaces() <= 2, {
  message: "expected a positive amount such as 2999 or 2999.50",
  abort: true,
});
const windowLimits = z.strictObject(Object.fromEntries(LIMIT_WINDOWS.map((w) => [w, limitAmount])) as Record<LimitWindow, typeof limitAmount>);

/**
 * The limits of each verification tier per rolling window (lib/payments/limits/tiers.ts), for
 * partners without limits of their own. Kept as written (decimal strings, as partners.tier_limits
 * holds them). A longer window is never below a shorter one, and tier 2 never below tier 1: a
 * customer who proved their source of funds is never allowed less.
 */
const tierLimits = z
  .strictObject(Object.fromEntries(VERIFICATION_TIERS.map((t) => [`${t}`, windowLimits])) as Record<`${VerificationTier}`, typeof windowLimits>)
  .superRefine((limits, ctx) => {
    const problem = (path: string[], message: string) => ctx.addIssue({ code: "custom", path, message });
    for (const tier of VERIFICATION_TIERS) {
      LIMIT_WINDOWS.forEach((w, i) => {
        const value = new Decimal(limits[`${tier}`][w]);
        if (i > 0 && value.lt(limits[`${tier}`][LIMIT_WINDOWS[i - 1]])) problem([`${tier}`, w], `may not be below tier ${tier}'s ${LIMIT_WINDOWS[i - 1]}`);
        if (tier > 1 && value.lt(limits[`${(tier - 1) as VerificationTier}`][w])) problem([`${tier}`, w], `may not be below tier ${tier - 1}'s ${w}`);
      });
    }
  }) satisfies z.ZodType<TierLimits>;

/** An IANA time zone name the runtime knows (a collection account's bank's business days run in it). */
function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * An account customers pay into by bank transfer (the funding page's instructions): its IBAN
 * (electronic format, no spaces), BIC, holder's name, the currencies it takes, and its bank's time
 * zone; its country (the IBAN's) gives the holidays of its business days.
 */
const collectionAccount = z.strictObject({
  iban: z.string().refine(isValidIBAN, { message: "expected an IBAN without spaces, such as DE89370400440532013000" }),
  bic: z.string().refine(isValidBIC, { message: "expected a BIC, such as COBADEFFXXX" }),
  name: z.string().trim().min(1).max(70),
  currencies: z.array(currency).min(1),
  timeZone: z.string().refine(isTimeZone, { message: "expected an IANA time zone, such as Europe/Berlin" }),
});

/**
 * How customers pay, platform-wide (absent, or a part absent: the deployment's settings
 * FUNDING_TTL_SECONDS, BANK_TRANSFER_FUNDING_BUSINESS_DAYS and COLLECTION_ACCOUNT_*). A card's
 * window is the funding session's lifetime (spec 2.8's 30 minutes by default); a bank transfer's
 * counts business days of its collection account's calendar. Each currency is collected into one
 * account, so the instructions never have to choose.
 */
const funding = z
  .strictObject({
    windows: z
      .strictObject({
        CARD: z.strictObject({ minutes: z.number().int().min(5).max(120) }).optional(),
        BANK_TRANSFER: z.strictObject({ businessDays: z.number().int().min(1).max(10) }).optional(),
      })
      .optional(),
    collectionAccounts: z.array(collectionAccount).min(1).optional(),
  })
  .superRefine((f, ctx) => {
    const seen = new Map<string, number>();
    (f.collectionAccounts ?? []).forEach((account, i) => {
      account.currencies.forEach((c, j) => {
        if (seen.has(c))
          ctx.addIssue({
            code: "custom",
            path: ["collectionAccounts", i, "currencies", j],
            message: `${c} is collected into account ${seen.get(c)! + 1} already`,
          });
        else seen.set(c, i);
      });
    });
  });

export type FundingTerms = z.output<typeof funding>;

/** A calendar day, "2027-01-05", that exists. */
const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "expected a day such as 2027-01-05", abort: true })
  .refine(
    (d) => {
      const at = Date.parse(`${d}T00:00:00Z`);
      return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === d;
    },
    { message: "not a day of the calendar" },
  );

/**
 * One country's business days beyond the holiday table (date-holidays' public and bank holidays,
 * weekends): days its banks close that the table does not know (a decreed holiday, a bank's own
 * closure) and days they open that it marks closed (a holiday worked, a moved one).
 */
const calendarChanges = z
  .strictObject({ closed: z.array(calendarDay).min(1).optional(), open: z.array(calendarDay).min(1).optional() })
  .superRefine((c, ctx) => {
    (c.open ?? []).forEach((day, i) => {
      if (c.closed?.includes(day)) ctx.addIssue({ code: "custom", path: ["open", i], message: `${day} is also closed` });
    });
  });

/** Calendar changes by country (ISO 3166 alpha-2), for every reader of business days. */
const calendars = z.record(z.string(), calendarChanges).superRefine((byCountry, ctx) => {
  for (const code of Object.keys(byCountry)) {
    if (!/^[A-Z]{2}$/.test(code) || !countries.alpha2ToAlpha3(code))
      ctx.addIssue({ code: "custom", path: [code], message: "expected an ISO 3166 alpha-2 country such as MX" });
  }
});

export type CalendarChanges = z.output<typeof calendarChanges>;

/**
 * The payout banks of the pain.001 file rail (the PAYOUT_BANKS setting's list and rules: our
 * account at each, an IBAN or a national account with its scheme, CLABE checked, and the
 * currencies it pays out); ids unique, since a payout file names its bank by id.
 */
const payoutBanks = z
  .array(payoutBankSchema)
  .min(1)
  .superRefine((banks, ctx) => {
    banks.forEach((b, i) => {
      if (banks.findIndex((x) => x.id === b.id) !== i) ctx.addIssue({ code: "custom", path: [i, "id"], message: "duplicate bank id" });
    });
  });
export type CollectionAccountTerms = z.output<typeof collectionAccount>;

/**
 * A configuration version's document (lib/payments/corridors/versions.ts): what the database keeps, what the
 * console's export writes and its import reads. `version` and `effectiveAt` are informative in an
 * export (an import is proposed as a new version, with the effective time the importer chooses).
 */
export const configurationDocumentSchema = z
  .strictObject({
    $comment: z.string().optional(),
    version: z.union([z.string().regex(/^v\d+$/), z.number().int().positive()]).optional(),
    effectiveAt: z.iso.datetime({ offset: true }).optional(),
    corridors,
    tierLimits,
    funding: funding.optional(),
    calendars: calendars.optional(),
    /** Absent: the PAYOUT_BANKS setting (lib/payments/payouts/banks.ts). */
    payoutBanks: payoutBanks.optional(),
    /** What a payout needs per country, currency and method; absent: data/account-requirements (lib/payments/payout-identifiers/account-requirements.ts). */
    accountRequirements: z.array(requirementSchema).min(1).optional(),
  })
  .superRefine(uniqueCodes)
  .superRefine((doc, ctx) => {
    // Each requirement names a corridor and a method of this version, once.
    const seen = new Set<string>();
    (doc.accountRequirements ?? []).forEach((r, i) => {
      const corridor = doc.corridors.find((c) => c.code === r.corridor);
      if (!corridor) ctx.addIssue({ code: "custom", path: ["accountRequirements", i, "corridor"], message: "not a corridor of this version" });
      else if (!(corridor.payoutMethods as readonly string[]).includes(r.method))
        ctx.addIssue({ code: "custom", path: ["accountRequirements", i, "method"], message: `${r.corridor} does not pay out by ${r.method}` });
      if (seen.has(`${r.corridor} ${r.method}`)) ctx.addIssue({ code: "custom", path: ["accountRequirements", i, "method"], message: "duplicate requirement" });
      seen.add(`${r.corridor} ${r.method}`);
    });
  });

export type ConfigurationDocument = z.output<typeof configurationDocumentSchema>;

/** A shipped corridor data file (data/corridors/vN.json: version 1's seed). */
export const corridorFileSchema = z
  .strictObject({
    $comment: z.string().optional(),
    version: z.string().regex(/^v\d+$/),
    corridors,
  })
  .superRefine(uniqueCodes);

export type CorridorFile = z.output<typeof corridorFileSchema>;
export type Corridor = Readonly<CorridorFile["corridors"][number]>;
