import { and, desc, eq, notInArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { otpOutbox } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { parseIdentifier } from "./identifiers";

const CODELESS_PURPOSES = ["RECEIPT", "CLAIM_RESOLUTION"];

/** GET /v1/sandbox/otp: the latest message sent to an identifier (decisions section 3). */
export async function latestOtpMessage(db: Executor, partnerId: string, rawIdentifier: string) {
  const identifier = parseIdentifier(rawIdentifier);
  const [row] = await db
    .select()
    .from(otpOutbox)
    // Receipts and claim resolutions share the sandbox mailbox but carry no code: this reads codes only.
    .where(and(eq(otpOutbox.partnerId, partnerId), eq(otpOutbox.identifier, identifier.value), notInArray(otpOutbox.purpose, CODELESS_PURPOSES)))
    .orderBy(desc(otpOutbox.createdAt))
    .limit(1);
  if (!row) throw new DomainError("otp.notFound", { message: "No message was sent to this identifier." });
  return { identifier: row.identifier, purpose: row.purpose, otp: row.otp, createdAt: row.createdAt.toISOString() };
}
