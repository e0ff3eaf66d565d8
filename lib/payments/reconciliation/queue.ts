import { asc, inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { bankCredits } from "@/db/schema";
import { amountToReturn } from "./resolve";

/** Credits an operator still has to act on: to match or return, an excess to return, a return to execute. */
const WAITING = ["QUEUED", "EXCESS", "RETURN_REQUESTED"] as const;

/** Rows per page of the queue (as the other review queues: KYC, cases, payout files). */
export const BANK_CREDIT_PAGE_SIZE = 20;

/** The console's "Bank credits" queue: credits waiting for an operator, and over-payments' excess to return. */
export async function bankCreditQueue(db: Executor, page: number) {
  const rows = await db
    .select()
    .from(bankCredits)
    .where(inArray(bankCredits.state, WAITING))
    .orderBy(asc(bankCredits.createdAt), asc(bankCredits.id))
    .limit(BANK_CREDIT_PAGE_SIZE + 1)
    .offset((page - 1) * BANK_CREDIT_PAGE_SIZE);
  return {
    hasMore: rows.length > BANK_CREDIT_PAGE_SIZE,
    items: rows.slice(0, BANK_CREDIT_PAGE_SIZE).map((row) => ({ ...row, toReturn: amountToReturn(row) })),
  };
}

/** How many credits the queue lists (the console's Overview). */
export async function bankCreditQueueCount(db: Executor): Promise<number> {
  return db.$count(bankCredits, inArray(bankCredits.state, WAITING));
}
