import { desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { beneficiaries } from "@/db/schema";

/** The customer's beneficiaries for the console's customer page, newest first, archived ones included. */
export async function customerBeneficiaries(db: Executor, subscriptionId: string) {
  return db
    .select({
      id: beneficiaries.id,
      firstName: beneficiaries.firstName,
      lastName: beneficiaries.lastName,
      state: beneficiaries.state,
      screeningResult: beneficiaries.screeningResult,
      createdAt: beneficiaries.createdAt,
      archivedAt: beneficiaries.archivedAt,
    })
    .from(beneficiaries)
    .where(eq(beneficiaries.subscriptionId, subscriptionId))
    .orderBy(desc(beneficiaries.createdAt))
    .limit(100);
}
