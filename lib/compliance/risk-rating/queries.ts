import { desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { customerRiskRatingHistory, customerRiskRatings } from "@/db/schema";

/** A customer's rating as it stands and its latest changes, for the console's customer and case pages. */
export async function ratingOfCustomer(db: Executor, customerId: string) {
  const [rating] = await db.select().from(customerRiskRatings).where(eq(customerRiskRatings.customerId, customerId));
  const history = await db
    .select()
    .from(customerRiskRatingHistory)
    .where(eq(customerRiskRatingHistory.customerId, customerId))
    .orderBy(desc(customerRiskRatingHistory.createdAt))
    .limit(20);
  return { rating, history };
}

export type CustomerRatingView = Awaited<ReturnType<typeof ratingOfCustomer>>;
