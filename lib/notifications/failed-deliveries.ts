import { desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { otpDeliveries } from "@/db/schema";
import { maskIdentifier } from "@/lib/auth/identifiers";

/** The deliveries the console's Failed deliveries page lists, and its Overview tile counts. */
const listed = () => eq(otpDeliveries.state, "FAILED");

/** OTP messages the delivery job gave up on, newest first, recipient masked (console). */
export async function failedOtpDeliveries(db: Executor, limit = 100) {
  const rows = await db.select().from(otpDeliveries).where(listed()).orderBy(desc(otpDeliveries.createdAt)).limit(limit);
  return rows.map((r) => ({
    id: r.id,
    partnerId: r.partnerId,
    channel: r.channel,
    provider: r.provider,
    recipient: maskIdentifier({ type: r.channel === "EMAIL" ? "EMAIL" : "PHONE", value: r.recipient }),
    purpose: r.purpose,
    attempts: r.attempts,
    lastError: r.lastError,
    createdAt: r.createdAt,
    failedAt: r.failedAt,
  }));
}

/** How many deliveries the Failed deliveries page lists (the console's Overview): the same filter. */
export async function failedOtpDeliveryCount(db: Executor): Promise<number> {
  return db.$count(otpDeliveries, listed());
}
