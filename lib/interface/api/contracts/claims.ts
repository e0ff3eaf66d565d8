import { z } from "zod";
import { CLAIM_OUTCOMES, CLAIM_STATUSES, CLAIM_TYPES } from "@/lib/payments";
import { defineContract } from "@/lib/interface/http/contract";
import { Timestamp } from "../schemas";
import { EX } from "../examples/ids";

const tags = ["Claims"];
const transferId = z.object({
  transferId: z.string().min(1).max(64).meta({ description: "The transfer the claim is about.", example: EX.transferId }),
});

export const ClaimSchema = z
  .object({
    claimId: z.string(),
    transferId: z.string(),
    type: z.enum(CLAIM_TYPES),
    description: z.string(),
    status: z.enum(CLAIM_STATUSES),
    dueBy: Timestamp.meta({ description: "When the provider will have resolved the claim: 90 days after it was made." }),
    createdAt: Timestamp,
    outcome: z.enum(CLAIM_OUTCOMES).nullable().meta({ description: "Set when RESOLVED: NO_ERROR, REFUND (resolutionAmount given back) or RESEND." }),
    resolutionAmount: z.string().nullable().meta({ description: "REFUND: the amount given back to the customer (decimal string)." }),
    resolutionCurrency: z.string().nullable(),
    resolutionNotice: z.string().nullable().meta({ description: "The provider's notice to the customer, with the outcome and its reasons." }),
    resolvedAt: Timestamp.nullable(),
  })
  .meta({ id: "Claim", description: "An error claim on a transfer (Regulation E 1005.33): OPEN, INVESTIGATING, RESOLVED." });

const CLAIM_EXAMPLE = {
  claimId: "clm_4k8m2q7x1c5v3b6n0p9r2t7w",
  transferId: EX.transferId,
  type: "NOT_RECEIVED",
  description: "My mother says the money has not arrived.",
  status: "OPEN",
  dueBy: "2027-02-19T10:30:00.000Z",
  createdAt: EX.at(30),
  outcome: null,
  resolutionAmount: null,
  resolutionCurrency: null,
  resolutionNotice: null,
  resolvedAt: null,
};

export const createClaim = defineContract({
  operationId: "createClaim",
  method: "POST",
  path: "/v1/core/transfers/{transferId}/claims",
  summary: "Report an error on a funded transfer (until 180 days after the date available)",
  description:
    "Accepted from funding on until 180 days after the date the money was available (the receipt's dateAvailable); after that 422 claim.windowClosed. " +
    "One unresolved claim per transfer and type: another while one is OPEN or INVESTIGATING is 409 claim.alreadyOpen (details.claimId names it). " +
    "The provider resolves it by dueBy (90 days); each change is a claim.status.changed event (webhook).",
  tags,
  auth: "customer",
  gate: "transferCancel",
  idempotency: "required",
  params: transferId,
  body: z
    .strictObject({
      type: z.enum(CLAIM_TYPES).meta({ description: "NOT_RECEIVED, WRONG_AMOUNT, LATE or OTHER." }),
      description: z.string().trim().min(1).max(2000).meta({ description: "What went wrong, in the customer's words." }),
    })
    .meta({ id: "ClaimCreateRequest" }),
  success: { status: 201, description: "Claim opened.", schema: ClaimSchema },
  examples: { request: { type: "NOT_RECEIVED", description: CLAIM_EXAMPLE.description }, response: CLAIM_EXAMPLE },
  errors: ["transfer.notFound", "transfer.stateInvalid", "claim.alreadyOpen", "claim.windowClosed", "customer.statusBlocking"],
});

export const listClaims = defineContract({
  operationId: "listClaims",
  method: "GET",
  path: "/v1/core/transfers/{transferId}/claims",
  summary: "List the error claims of a transfer, oldest first",
  tags,
  auth: "customer",
  gate: "transferRead",
  params: transferId,
  success: { status: 200, description: "The claims.", schema: z.object({ items: z.array(ClaimSchema) }).meta({ id: "ClaimListResponse" }) },
  examples: { response: { items: [CLAIM_EXAMPLE] } },
  errors: ["transfer.notFound", "customer.statusInsufficient", "customer.statusBlocking"],
});
