import { z } from "zod";
import { raisePepMatch } from "../cases/pep";
import { pepScreeningProvider } from "./pep";
import { recordScreening } from "./results";
import { defineJob } from "@/lib/platform/jobs/define";
import { lockCustomer } from "@/lib/identity";

/**
 * PEP screening of a submitted profile, and again after a new PEP list version (listVersionId):
 * the profile's name and date of birth against the PEP lists (lib/compliance/screening/pep.ts, the sanctions
 * matcher). Every run is kept with its evidence (screening results of subject type
 * "customer-pep"). A match flags the customer PEP and opens or joins their compliance case
 * (lib/compliance/cases/pep.ts); it changes no status and emits nothing: the partner is not told.
 */
export const screenCustomerPep = defineJob({
  kind: "customers.screenPep",
  schema: z.object({ customerId: z.string(), listVersionId: z.string().optional() }),
  run: async (tx, { payload, now }) => {
    const customer = await lockCustomer(tx, payload.customerId);
    const profile = customer.profile as { firstName: string; middleNames?: string[]; lastName: string; dateOfBirth: string; nationality: string } | null;
    if (!profile || customer.status === "CLOSED") return;
    const outcome = await pepScreeningProvider().screen(profile, tx);
    await recordScreening(tx, "customer-pep", customer.id, outcome, now);
    if (outcome.result !== "CLEAR") await raisePepMatch(tx, { customerId: customer.id, evidence: outcome.evidence, now });
  },
});
