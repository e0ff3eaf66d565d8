import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { RELATIONSHIPS, BENEFICIARY_STATES } from "@/lib/payments";
import { commaSeparated, PersonName, Timestamp } from "../schemas";
import { alpha3, isoDate, StructuredAddressSchema } from "./profile";
import { EX } from "../examples/ids";

const tags = ["Beneficiaries"];

export const BeneficiaryStateSchema = z.enum(BENEFICIARY_STATES).meta({ id: "BeneficiaryState" });

export const PayoutMethodSummarySchema = z
  .object({
    payoutMethodId: z.string(),
    methodType: z.string().meta({ example: "BANK_TRANSFER" }),
    corridor: z.string().meta({ example: "US-MX" }),
    destinationIdentifierMasked: z.string().meta({ example: "****7771" }),
    addedAt: Timestamp,
    archived: z.boolean(),
  })
  .meta({ id: "PayoutMethodSummary" });

export const BeneficiarySchema = z
  .object({
    beneficiaryId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    dateOfBirth: z.string().nullable(),
    nationality: z.string().nullable(),
    countryOfResidence: z.string(),
    relationshipToCustomer: z.enum(RELATIONSHIPS),
    state: BeneficiaryStateSchema,
    payoutMethods: z.array(PayoutMethodSummarySchema),
    customerActionHint: z.string().nullable().meta({ example: "await_beneficiary_verification" }),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
  })
  .meta({ id: "Beneficiary" });

const id = z.object({
  beneficiaryId: z.string().min(1).max(64).meta({ description: "The beneficiary, from its creation or the list.", example: EX.beneficiaryId }),
});

/** One beneficiary as the examples show it: verified, with the payout method of the journey's transfer. */
const BENEFICIARY_EXAMPLE = {
  beneficiaryId: EX.beneficiaryId,
  firstName: "María",
  lastName: "López",
  dateOfBirth: "1962-07-30",
  nationality: "MEX",
  countryOfResidence: "MEX",
  relationshipToCustomer: "FAMILY",
  state: "VALID",
  payoutMethods: [
    {
      payoutMethodId: EX.payoutMethodId,
      methodType: "BANK_TRANSFER",
      corridor: "US-MX",
      destinationIdentifierMasked: "****7771",
      addedAt: EX.at(9),
      archived: false,
    },
  ],
  customerActionHint: null,
  createdAt: EX.at(3),
  lastUsedAt: EX.at(9),
};

export const createBeneficiary = defineContract({
  operationId: "createBeneficiary",
  method: "POST",
  path: "/v1/core/beneficiaries",
  summary: "Create a beneficiary (screened asynchronously)",
  description: "202 with state PENDING. A second creation with the same identity makes a second record.",
  tags,
  auth: "customer",
  gate: "beneficiaryManage",
  idempotency: "required",
  body: z
    .strictObject({
      firstName: PersonName,
      lastName: PersonName,
      dateOfBirth: isoDate.optional(),
      nationality: alpha3.optional(),
      countryOfResidence: alpha3,
      relationshipToCustomer: z.enum(RELATIONSHIPS),
      address: StructuredAddressSchema.optional().meta({
        description:
          "The beneficiary's residence address (optional; its country must be countryOfResidence): the payout to the beneficiary carries it, as payout banks may require. Not echoed in the detail, whose members decisions 5 fixes.",
      }),
    })
    .meta({ id: "BeneficiaryCreateRequest" }),
  success: { status: 202, description: "Created in PENDING; screening runs.", schema: BeneficiarySchema },
  examples: {
    request: {
      firstName: "María",
      lastName: "López",
      dateOfBirth: "1962-07-30",
      nationality: "MEX",
      countryOfResidence: "MEX",
      relationshipToCustomer: "FAMILY",
      address: { addressLine1: "Calle Hidalgo 45", city: "Guadalajara", region: "JAL", postalCode: "44100", country: "MEX" },
    },
    response: { ...BENEFICIARY_EXAMPLE, state: "PENDING", payoutMethods: [], customerActionHint: "await_beneficiary_verification", lastUsedAt: null },
  },
  errors: ["validation.fieldInvalid", "customer.statusBlocking", "customer.statusInsufficient"],
});

export const listBeneficiaries = defineContract({
  operationId: "listBeneficiaries",
  method: "GET",
  path: "/v1/core/beneficiaries",
  summary: "List beneficiaries: most recently used first, then newest",
  tags,
  auth: "customer",
  gate: "beneficiaryManage",
  query: z.object({
    states: commaSeparated(BENEFICIARY_STATES, "Comma-separated BeneficiaryState values.")
      .optional()
      .meta({ description: "Default VALID,MONITORED,BLOCKED,PENDING." }),
    cursor: z.string().max(1024).optional().meta({ description: "Opaque: nextCursor of the previous page; omitted for the first page." }),
    limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: "Page size, 1 to 200." }),
  }),
  success: {
    status: 200,
    description: "A page.",
    schema: z.object({ items: z.array(BeneficiarySchema), nextCursor: z.string().nullable() }).meta({ id: "BeneficiaryList" }),
  },
  examples: { response: { items: [BENEFICIARY_EXAMPLE], nextCursor: null } },
  errors: ["validation.fieldInvalid"],
});

export const readBeneficiary = defineContract({
  operationId: "readBeneficiary",
  method: "GET",
  path: "/v1/core/beneficiaries/{beneficiaryId}",
  summary: "Read a beneficiary",
  tags,
  auth: "customer",
  gate: "beneficiaryManage",
  params: id,
  success: { status: 200, description: "The beneficiary.", schema: BeneficiarySchema },
  examples: { response: BENEFICIARY_EXAMPLE },
  errors: ["beneficiary.notFound"],
});

export const archiveBeneficiary = defineContract({
  operationId: "archiveBeneficiary",
  method: "POST",
  path: "/v1/core/beneficiaries/{beneficiaryId}/archive",
  summary: "Archive a beneficiary (one way)",
  tags,
  auth: "customer",
  gate: "beneficiaryManage",
  idempotency: "required",
  params: id,
  success: {
    status: 200,
    description: "Archived.",
    schema: z.object({ beneficiaryId: z.string(), state: z.literal("ARCHIVED"), archivedAt: Timestamp }).meta({ id: "BeneficiaryArchiveResponse" }),
  },
  examples: { response: { beneficiaryId: EX.beneficiaryId, state: "ARCHIVED", archivedAt: EX.at(40) } },
  errors: ["beneficiary.notFound", "beneficiary.archived", "beneficiary.archiveBlocked"],
});

export const sandboxScreening = defineContract({
  operationId: "sandboxBeneficiaryScreening",
  method: "POST",
  path: "/v1/sandbox/beneficiaries/{beneficiaryId}/screening",
  summary: "Force a beneficiary's screening result (sandbox only)",
  tags: ["Sandbox"],
  auth: "customer",
  sandboxOnly: true,
  idempotency: "optional",
  params: id,
  body: z.strictObject({ outcome: z.enum(["VALID", "MONITORED", "BLOCKED"]) }).meta({ id: "SandboxScreeningRequest" }),
  success: { status: 200, description: "The beneficiary after the decision.", schema: BeneficiarySchema },
  examples: { request: { outcome: "VALID" }, response: { ...BENEFICIARY_EXAMPLE, payoutMethods: [], lastUsedAt: null } },
  errors: ["beneficiary.notFound", "beneficiary.stateInvalid"],
});
