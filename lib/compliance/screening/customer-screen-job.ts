import { eq } from "drizzle-orm";
import { z } from "zod";
import { customers } from "@/db/schema";
import { defineJob } from "@/lib/platform/jobs/define";
import { screeningProvider, stronger } from "./provider";
import { recordScreening } from "./results";
import { raiseCase } from "../screening-cases/cases";
import { changeCustomer, lockCustomer } from "@/lib/identity";

/**
 * Sanctions screening of a submitted profile (spec 4.1 rule 1), and its rescreening after a new
 * list version (listVersionId). A hit blocks; a close match monitors (for a PENDING customer it is
 * remembered and applied at KYC approval). A rescreen changes the status only on a result stronger
 * than the stored one, so an operator's decision on a known match stands. The evidence is stored
 * with the customer (lib/compliance/screening/results.ts): only the status surfaces. A close match also
 * raises a screening case (lib/compliance/screening-cases).
 */
export const screenCustomer = defineJob({
  kind: "customers.screen",
  schema: z.object({ customerId: z.string(), listVersionId: z.string().optional() }),
  run: async (tx, { payload, now }) => {
    const customer = await lockCustomer(tx, payload.customerId);
    const profile = customer.profile as { firstName: string; middleNames?: string[]; lastName: string; dateOfBirth: string; nationality: string } | null;
    if (!profile || customer.status === "CLOSED") return;
    const outcome = await screeningProvider().screen(profile, tx);
    let result = outcome.result;
    if (result !== "HIT" && customer.linkedCustomerId) {
      // The same person, known under another partner, is already a confirmed hit.
      const [linked] = await tx.select({ screeningResult: customers.screeningResult }).from(customers).where(eq(customers.id, customer.linkedCustomerId));
      if (linked?.screeningResult === "HIT") result = "HIT";
    }
    await recordScreening(tx, "customer", customer.id, { ...outcome, result }, now);
    // A close match is a case for a human, also on a rescreen of a MONITORED customer
    // (a new or changed entry); entries already cleared for this customer are not raised again.
    // A HIT found by a rescreen also raises one: the customer's transfers already moving are held
    // until the match is confirmed (funds blocked) or cleared.
    if (result === "CLOSE_MATCH" || (payload.listVersionId && result === "HIT")) {
      await raiseCase(tx, { subjectType: "customer", subjectId: customer.id, customerId: customer.id }, { ...outcome, result }, now);
    }
    if (payload.listVersionId && !stronger(result, customer.screeningResult)) return;
    await tx.update(customers).set({ screeningResult: result }).where(eq(customers.id, customer.id));
    if (result === "HIT") await changeCustomer(tx, customer, { triggers: ["screening.hit"] }, now);
    if (result === "CLOSE_MATCH") await changeCustomer(tx, customer, { triggers: ["screening.closeMatch"] }, now);
  },
});
