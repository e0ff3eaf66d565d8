import { z } from "zod";
import { PAYOUT_METHODS } from "@/lib/payments";
import { defineContract } from "@/lib/interface/http/contract";
import { LANGUAGES } from "@/lib/platform/i18n/language";
import { Timestamp } from "../schemas";
import { EX } from "../examples/ids";

const tags = ["Quotes"];
const SIX_DECIMALS = /^(0|[1-9]\d*)\.\d{6}$/;
const currency = z.string().regex(/^[A-Z]{3}$/, "An ISO 4217 code such as USD.");
const money = z.string().meta({ example: "100.000000" });

export const PURPOSES = ["FAMILY_SUPPORT", "RENT", "INSURANCE", "EDUCATION", "MEDICAL_EXPENSES", "GIFT", "SAVINGS"] as const;

const ESTIMATED_DELIVERY_BY = Timestamp.optional().meta({
  description:
    "Extension: when the money is available to the recipient if the transfer is funded now (the corridor and payout method's business days, cut-off and both countries' public holidays).",
});

export const QuoteSchema = z
  .object({
    quoteId: z.string(),
    originAmount: money,
    originCurrency: z.string(),
    destinationAmount: money,
    destinationCurrency: z.string(),
    fxRate: z.string().meta({ example: "18.750000" }),
    principalFee: money,
    partnerFee: money,
    totalCustomerCost: money,
    totalCustomerCostCurrency: z.string(),
    quoteValidUntil: Timestamp,
    estimatedDeliveryBy: ESTIMATED_DELIVERY_BY,
    corridor: z
      .object({
        originCountry: z.string(),
        destinationCountry: z.string(),
        payoutMethod: z.string(),
        fundingMethods: z.array(z.enum(["CARD", "BANK_TRANSFER"])).meta({
          description:
            "Extension: how the customer may pay for a transfer accepted from this quote (the funding page offers these), as the configuration version the quote was priced under defines the corridor.",
        }),
      })
      .meta({ id: "Corridor" }),
    signedQuote: z.string().meta({ description: "Compact JWS (RS256) over the JCS-canonical spec 5.4 claims; keys at /.well-known/jwks.json." }),
    status: z.enum(["AVAILABLE", "ACCEPTED", "EXPIRED"]),
  })
  .meta({ id: "QuoteResponse" });

const quoteId = z.object({ quoteId: z.string().min(1).max(128).meta({ description: "The quote, from its creation.", example: EX.quoteId }) });

/** The journey's quote: 100 USD to MXN at 18.75, valid 60 seconds. */
const QUOTE_EXAMPLE = {
  quoteId: EX.quoteId,
  originAmount: "100.000000",
  originCurrency: "USD",
  destinationAmount: "1875.000000",
  destinationCurrency: "MXN",
  fxRate: "18.750000",
  principalFee: "2.990000",
  partnerFee: "1.000000",
  totalCustomerCost: "103.990000",
  totalCustomerCostCurrency: "USD",
  quoteValidUntil: EX.at(11),
  estimatedDeliveryBy: "2026-11-23T23:00:00.000Z",
  corridor: { originCountry: "USA", destinationCountry: "MEX", payoutMethod: "bank_account", fundingMethods: ["CARD", "BANK_TRANSFER"] },
  signedQuote:
    "eyJhbGciOiJSUzI1NiIsImtpZCI6InNlcnZpY2UtMjAyNi0xMSIsInR5cCI6IkpXVCJ9.eyJxdW90ZV9pZCI6InF1b18xazZtM3E4ZDV4MmM3djRiOW4wcDRyMXQiLCJzZW5kX2Ftb3VudCI6IjEwMC4wMDAwMDAifQ.c2lnbmF0dXJl",
  status: "AVAILABLE",
};

export const createQuote = defineContract({
  operationId: "createQuote",
  method: "POST",
  path: "/v1/core/quotes",
  summary: "Get a signed quote",
  description: "SERVICE_PRICED partners: priced by the service. PARTNER_SIGNED partners send partnerQuote (spec 5.4), verified here and again at acceptance.",
  tags,
  auth: "customer",
  gate: "quoteAccept",
  idempotency: "required",
  body: z
    .strictObject({
      originAmount: z.string().regex(SIX_DECIMALS, "A decimal string with exactly six decimals, e.g. 100.000000."),
      originCurrency: currency,
      destinationCurrency: currency,
      beneficiaryId: z.string().min(1).max(64),
      payoutMethod: z.enum(PAYOUT_METHODS).optional(),
      partnerQuote: z.string().max(65536).optional(),
    })
    .meta({ id: "QuoteCreateRequest" }),
  success: { status: 200, description: "The signed quote.", schema: QuoteSchema },
  examples: {
    request: { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId: EX.beneficiaryId, payoutMethod: "bank_account" },
    response: QUOTE_EXAMPLE,
  },
  errors: [
    "beneficiary.notFound",
    "beneficiary.stateInsufficient",
    "beneficiary.stateBlocking",
    "customer.statusInsufficient",
    "customer.statusBlocking",
    "subscription.spended",
    "validation.methodNotAvailableForCorridor",
    "quote.corridorUnavailable",
    "quote.signatureInvalid",
    "quote.invalid",
    "quote.expired",
    "quote.bindingMismatch",
    "quote.sequenceGap",
    "quote.envelopeBreach",
    "quote.amountChanged",
    "internal.unavailable",
  ],
});

export const readQuote = defineContract({
  operationId: "readQuote",
  method: "GET",
  path: "/v1/core/quotes/{quoteId}",
  summary: "Read a quote",
  tags,
  auth: "customer",
  gate: "quoteRead",
  params: quoteId,
  success: { status: 200, description: "The quote.", schema: QuoteSchema },
  examples: { response: QUOTE_EXAMPLE },
  errors: ["quote.notFound", "customer.statusBlocking"],
});

export const readDisclosure = defineContract({
  operationId: "readDisclosure",
  method: "GET",
  path: "/v1/core/quotes/{quoteId}/disclosure",
  summary: "Pre-payment disclosure, with the single-use token acceptance needs",
  description: "Language from Accept-Language (q-values), then the profile preference, then English. Cache-Control: no-store.",
  tags,
  auth: "customer",
  gate: "quoteRead",
  params: quoteId,
  success: {
    status: 200,
    description: "The disclosure.",
    schema: z
      .object({
        quoteId: z.string(),
        disclosureToken: z.string(),
        originAmount: money,
        originCurrency: z.string(),
        destinationAmount: money,
        destinationCurrency: z.string(),
        fees: z.object({ principalFee: money, partnerFee: money, totalFees: money, currency: z.string() }),
        rate: z.string(),
        expiresAt: Timestamp,
        estimatedDeliveryBy: ESTIMATED_DELIVERY_BY,
        recipientName: z.string().meta({ description: "Extension: the recipient, as the beneficiary is named." }),
        provider: z
          .object({ name: z.string().nullable(), phone: z.string().nullable(), website: z.string().nullable(), regulator: z.string().nullable() })
          .meta({ description: "Extension: the provider's contact and regulator (per partner)." }),
        conversionChargeOverEcbRate: z
          .object({
            percentage: z.string().meta({ description: "The rate's mark-up over the reference rate, in percent (two decimals)." }),
            referenceRate: z.string(),
            referenceRateSource: z.string().meta({ description: "ECB when the rates come from the ECB feed; sandbox otherwise." }),
          })
          .optional()
          .meta({
            description:
              "Extension (EU Cross-border Payments Regulation): with an EEA origin, the currency conversion charge over the ECB euro reference rate.",
          }),
        language: z.enum(LANGUAGES),
        version: z.string(),
        content: z.string(),
      })
      .meta({ id: "Disclosure" }),
  },
  examples: {
    response: {
      quoteId: EX.quoteId,
      disclosureToken: "dt_Vb7Qx2Lm9Tz4Rk8Nc1Wp6Hs3Jd5F",
      originAmount: "100.000000",
      originCurrency: "USD",
      destinationAmount: "1875.000000",
      destinationCurrency: "MXN",
      fees: { principalFee: "2.990000", partnerFee: "1.000000", totalFees: "3.990000", currency: "USD" },
      rate: "18.750000",
      expiresAt: EX.at(11),
      estimatedDeliveryBy: "2026-11-23T23:00:00.000Z",
      recipientName: "Lucia Hernandez",
      provider: {
        name: "Demo Partner Remittances",
        phone: "+1 800 555 0100",
        website: "https://demo-partner.example.com/help",
        regulator: "Consumer Financial Protection Bureau, consumerfinance.gov, 855-411-2372",
      },
      language: "en",
      version: "2026-11-v3",
      content: [
        "Recipient: Lucia Hernandez.",
        "Amount to send: USD 100.00.",
        "Fees: USD 3.99.",
        "Exchange rate: 1 USD = 18.75 MXN.",
        "Total to pay: USD 103.99.",
        "Amount the recipient receives: MXN 1,875.00.",
        "Date available: the money will be available to the recipient by November 23, 2026 at 11:00 PM UTC if you pay now.",
        "This price is guaranteed until November 21, 2026 at 10:11 AM UTC.",
        "You can cancel this transfer within 30 minutes of payment for a full refund, fees included. After that, you can cancel it for the same full refund until the money is sent to the payout network. Refunds go to your original payment method within 3 business days.",
        "If you think there has been an error, tell us within 180 days of the date the money was available. We will investigate and answer within 90 days; if we made an error, we will refund you or send the transfer again at no cost.",
        "Contact us: Demo Partner Remittances, +1 800 555 0100, https://demo-partner.example.com/help. You can also complain to: Consumer Financial Protection Bureau, consumerfinance.gov, 855-411-2372.",
      ].join("\n"),
    },
  },
  errors: ["quote.notFound", "quote.expired", "quote.invalid"],
});

export const acceptQuote = defineContract({
  operationId: "acceptQuote",
  method: "POST",
  path: "/v1/core/quotes/{quoteId}/accept",
  summary: "Accept the quote: creates the transfer in registered",
  description: [
    "A retry with the same Idempotency-Key answers the original 201 and transferId.",
    "",
    "The origin amount, converted into the partner's limit currency at the reference rate of this moment, counts against the customer's rolling limits (`GET /v1/core/limits`) from here until the transfer is aborted, expired, rejected or canceled.",
    "Over a limit the answer is 422 `customer.limitExceeded` (details: `window`, `limit`, `remaining`, `currency`, `remediationHint`: `provide_source_of_funds` below the top tier, else `contact_support`) and no transfer is created.",
  ].join("\n"),
  tags,
  auth: "customer",
  gate: "quoteAccept",
  idempotency: "required",
  params: quoteId,
  body: z.strictObject({ disclosureToken: z.string().min(1).max(200), purposeOfTransfer: z.enum(PURPOSES) }).meta({ id: "QuoteAcceptRequest" }),
  success: {
    status: 201,
    description: "Transfer created.",
    schema: z.object({ quoteId: z.string(), transferId: z.string(), transferStatus: z.literal("registered") }).meta({ id: "QuoteAcceptResponse" }),
  },
  examples: {
    request: { disclosureToken: "dt_Vb7Qx2Lm9Tz4Rk8Nc1Wp6Hs3Jd5F", purposeOfTransfer: "FAMILY_SUPPORT" },
    response: { quoteId: EX.quoteId, transferId: EX.transferId, transferStatus: "registered" },
  },
  errors: [
    "quote.notFound",
    "quote.expired",
    "quote.invalid",
    "quote.envelopeBreach",
    "quote.signatureInvalid",
    "customer.statusInsufficient",
    "customer.statusBlocking",
    "subscription.spended",
    "beneficiary.stateInsufficient",
    "beneficiary.stateBlocking",
    "customer.limitExceeded",
    "internal.unavailable",
  ],
});
