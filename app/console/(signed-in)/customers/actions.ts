"use server";

import { z } from "zod";
import {
  approvePepCustomer as approvePep,
  clearCustomerRiskFlag as clearFlag,
  overrideCustomerRating,
  recomputeCustomerRating,
  setCustomerStatus as setStatus,
  setRelationship as setSubscription,
} from "@/lib/operations/commands/customers";
import { consoleCommand } from "@/lib/operations/console/action";
import { OPERATOR_STATUSES } from "@/lib/identity/customers/status-machine";
import { RATINGS } from "@/lib/compliance/risk-rating/model";

const reason = z.string().trim().min(3).max(500);

// Set a customer's status (the table's operator.setStatus row); emits customer.status.changed.
export const setCustomerStatus = consoleCommand(
  "admin",
  z.object({
    subscriptionId: z.string().min(1),
    status: z.enum(OPERATOR_STATUSES),
    remediation: z.enum(["", "complete_kyc", "submit_profile_attributes", "contact_support"]).optional(),
    hint: z.string().trim().max(300).optional(),
    reason,
  }),
  ({ reason, ...input }) => ({ command: setStatus, input, reason }),
);

// Set the partner-customer relationship: active, suspended (spended) or closed.
export const setRelationship = consoleCommand(
  "admin",
  z.object({ subscriptionId: z.string().min(1), status: z.enum(["active", "spended", "closed"]), reason }),
  ({ reason, ...input }) => ({ command: setSubscription, input, reason }),
);

// Clear a compliance risk flag: reviewers (analysts) and admins, with a reason. The flag stays on
// the record as history (who set it, who cleared it, when, why) and in the audit log.
export const clearCustomerRiskFlag = consoleCommand(
  "reviewer",
  z.object({ subscriptionId: z.string().min(1), flagId: z.string().min(1), reason }),
  ({ reason, ...input }) => ({ command: clearFlag, input, reason }),
);

// Approve the relationship with a PEP customer (admins, with a reason): refused until their
// ENHANCED KYC was approved; their transfers may then be approved out of review.
export const approvePepCustomer = consoleCommand("admin", z.object({ subscriptionId: z.string().min(1), reason }), ({ reason, ...input }) => ({
  command: approvePep,
  input,
  reason,
}));

// Propose an override of a customer's risk rating, with a reason: a second analyst approves it on
// the Approvals page (the command always waits for one).
export const overrideRating = consoleCommand(
  "reviewer",
  z.object({ customerId: z.string().min(1), rating: z.enum(RATINGS), reason: z.string().trim().min(10).max(500) }),
  ({ reason, ...input }) => ({ command: overrideCustomerRating, input, reason }),
);

// Read the rating's factors again now.
export const recomputeRating = consoleCommand("reviewer", z.object({ customerId: z.string().min(1) }), (input) => ({
  command: recomputeCustomerRating,
  input,
}));
