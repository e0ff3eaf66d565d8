import type { Tx } from "@/db";
import { DomainError } from "@/lib/platform/errors";
import { generatePayoutFiles } from "./generate";
import { buildPain001 } from "./pain001";

/**
 * POST /v1/sandbox/payout-files: the partner's ready transfers go into files exactly as the job
 * makes them (one per bank and currency, stored, transfers to topay), and the answer is one
 * pain.001 document holding each file's payment information block (MsgId: the first file's id).
 */
export async function sandboxPayoutDocument(tx: Tx, partnerId: string, now: Date): Promise<string> {
  const files = await generatePayoutFiles(tx, { now, partnerId });
  if (files.length === 0) {
    throw new DomainError("transfer.stateInvalid", {
      message: "No transfer of this partner is ready for payout (funded, not held, not in a payout file).",
      details: { currentState: null },
    });
  }
  if (files.length === 1) return files[0].xml;
  return buildPain001({
    messageId: files[0].id,
    createdAt: now,
    initiatingParty: files[0].bank.debtorName,
    payments: files.map((f) => f.payment),
  });
}
