import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { LIMIT_WINDOWS, TIER_REQUIREMENTS, VERIFICATION_TIERS } from "@/lib/payments";

const tags = ["Limits"];
const amount = (example: string) => z.string().meta({ example, description: "Decimal string in the limit currency." });
const tier = z
  .union(VERIFICATION_TIERS.map((t) => z.literal(t)))
  .meta({ id: "VerificationTier", description: "1: KYC completed; 2: source of funds approved." });

export const readLimits = defineContract({
  operationId: "readLimits",
  method: "GET",
  path: "/v1/core/limits",
  summary: "The customer's tier and rolling limits: limit, used and remaining per window",
  description: [
    "Rolling windows of 1, 30 and 180 days (`P1D`, `P30D`, `P180D`) up to now. A transfer counts from its acceptance, at its origin amount converted into the partner's limit currency at the reference rate of that moment, until it is aborted, expired, rejected or canceled.",
    "Tier 1 is a customer whose KYC is completed; tier 2 needs source-of-funds evidence: a KYC session opened at tier 1 has purpose `ENHANCED`, and its approval moves the customer to tier 2 (`customer.status.changed` carries the tier).",
  ].join("\n"),
  tags,
  auth: "customer",
  gate: "transferRead",
  success: {
    status: 200,
    description: "The customer's standing.",
    schema: z
      .object({
        tier,
        currency: z.string().meta({ example: "USD", description: "The partner's limit currency (ISO 4217)." }),
        windows: z.array(
          z
            .object({ window: z.enum(LIMIT_WINDOWS), limit: amount("2999.000000"), used: amount("2900.000000"), remaining: amount("99.000000") })
            .meta({ id: "LimitWindow" }),
        ),
        nextTier: z
          .object({ tier, requires: z.array(z.enum(TIER_REQUIREMENTS)) })
          .nullable()
          .meta({ description: "What raises the limits; null at the top tier." }),
      })
      .meta({ id: "LimitsResponse" }),
  },
  examples: {
    response: {
      tier: 1,
      currency: "USD",
      windows: [
        { window: "P1D", limit: "2999.000000", used: "2900.000000", remaining: "99.000000" },
        { window: "P30D", limit: "10000.000000", used: "2900.000000", remaining: "7100.000000" },
        { window: "P180D", limit: "18000.000000", used: "2900.000000", remaining: "15100.000000" },
      ],
      nextTier: { tier: 2, requires: ["SOURCE_OF_FUNDS"] },
    },
  },
  errors: ["customer.statusInsufficient", "customer.statusBlocking"],
});
