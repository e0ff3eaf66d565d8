import { and, eq, sql, type SQLWrapper } from "drizzle-orm";
import { preparedOn } from "@/db/prepared";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customers, payoutMethods, quotes, transfers } from "@/db/schema";
import { paymentToBeneficiaryCheck } from "../beneficiaries/payment-check";
import { destinationKey } from "./destination-key";
import { beneficiaryNotFound, payoutMethodView } from "@/lib/payments/beneficiaries/records";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { refreshVersions } from "@/lib/payments/corridors/versions";
import { payoutTypeToMethod } from "@/lib/payments/corridors/payout-methods";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { DomainError, validationError, type ValidationCode } from "@/lib/platform/errors";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { payoutProvider } from "@/lib/payments/providers/payout";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { canonicalMethodType } from "@/lib/payments/payout-identifiers/method-types";
import { checkIdentifierFormat } from "@/lib/payments/payout-identifiers/format-check";
import { aboveOriginatorThreshold, checkOriginatorData, destinationIssue } from "@/lib/payments/payout-identifiers/account-requirements";
import { referenceRates } from "@/lib/payments/pricing/rate-store";
import { maskIdentifier } from "@/lib/payments/payout-identifiers/mask";
import { expireIfOverdue } from "./deadline";
import { transferNotFound, transitionTransfer, type TransferRow } from "./records";
import { nextStepFor, transferMachine } from "./state-machine";
import { expectState } from "@/lib/platform/state-machine/define";

export interface SubmitInput {
  beneficiaryId: string;
  payoutMethod: { methodType: string; destinationIdentifier?: string; payoutMethodId?: string };
  purposeOfTransfer: string;
}

const issue = (code: ValidationCode, field: string, message: string) =>
  new DomainError(code, { message, details: { issues: [{ field, code, message }] }, hint: "fix_request" });

type PayoutMethodRow = typeof payoutMethods.$inferSelect;

/**
 * The payout method for the transfer: an existing one of the beneficiary, or a new one to store
 * encrypted (`insert`, not yet run: the caller sends it with its other writes). Also the rules of
 * a payout repair's new destination (lib/payments/payouts/repair.ts). `stored`: the
 * method payoutMethodId names among the beneficiary's, when the caller has read it already (null:
 * there is none); otherwise it is read here.
 */
export async function resolvePayoutMethod(
  tx: Tx,
  row: TransferRow,
  input: Pick<SubmitInput, "payoutMethod">,
  now: Date,
  stored?: PayoutMethodRow | null,
): Promise<{ method: PayoutMethodRow; insert?: SQLWrapper }> {
  const { destinationIdentifier, payoutMethodId } = input.payoutMethod;
  if (destinationIdentifier !== undefined && payoutMethodId !== undefined) {
    throw issue("validation.payoutMethodConflict", "payoutMethod", "Send destinationIdentifier or payoutMethodId, not both.");
  }
  if (destinationIdentifier === undefined && payoutMethodId === undefined) {
    throw issue("validation.destinationIdentifierMissing", "payoutMethod.destinationIdentifier", "Send destinationIdentifier or payoutMethodId.");
  }
  const methodType = canonicalMethodType(input.payoutMethod.methodType);
  if (!methodType) throw issue("validation.fieldInvalid", "payoutMethod.methodType", "Unknown payout method type.");
  // A stored method is checked against the request first (spec 4.1 rule 9): its type mismatch
  // answers as such whatever the quote was priced for.
  let existing: PayoutMethodRow | undefined;
  if (payoutMethodId !== undefined) {
    [existing] =
      stored !== undefined
        ? [stored ?? undefined]
        : await tx
            .select()
            .from(payoutMethods)
            .where(and(eq(payoutMethods.id, payoutMethodId), eq(payoutMethods.beneficiaryId, row.beneficiaryId)));
    if (!existing || existing.archived)
      throw issue("validation.fieldInvalid", "payoutMethod.payoutMethodId", "No such active payout method for this beneficiary.");
    if (existing.methodType !== methodType)
      throw issue("validation.payoutMethodTypeMismatch", "payoutMethod.methodType", `That payout method is ${existing.methodType}.`);
  }
  // The corridor as the version its quote was priced under defined it (loaded if this process lacks it).
  if (row.configurationVersion !== null) await refreshVersions(tx, row.configurationVersion);
  const corridor = corridorOfTransfer(row)!;
  const corridorMethod = payoutTypeToMethod(methodType);
  if (!corridorMethod || !corridor.payoutMethods.includes(corridorMethod)) {
    throw issue("validation.methodNotAvailableForCorridor", "payoutMethod.methodType", `${methodType} is not offered on ${corridor.code}.`);
  }
  if (corridorMethod !== row.payoutMethod) {
    throw issue("validation.fieldInvalid", "payoutMethod.methodType", `The quote was priced for ${row.payoutMethod}; get a new quote for ${corridorMethod}.`);
  }
  if (existing) return { method: existing };
  const checked = checkIdentifierFormat({ methodType, destinationIdentifier: destinationIdentifier!, bankAccountFormat: corridor.bankAccount.format });
  // The account requirements' format for this corridor and method (GET /v1/core/account-requirements), as the transfer's version defines it.
  const problem = destinationIssue(corridor.code, corridorMethod, checked.identifier, row.configurationVersion);
  if (problem) throw validationError([problem], "validation.fieldFormatInvalid", problem.message);
  const id = newId("pm");
  const cipher = await destinationCipher(tx);
  const method = {
    id,
    beneficiaryId: row.beneficiaryId,
    methodType: checked.methodType,
    corridor: corridor.code,
    destinationIdentifierEncrypted: cipher.encrypt(checked.identifier, id),
    destinationIdentifierMasked: maskIdentifier(checked.methodType, checked.identifier),
    destinationKey: await destinationKey(tx, checked.methodType, checked.identifier),
    archived: false,
    addedAt: now,
  };
  return { method, insert: tx.insert(payoutMethods).values(method) };
}

/**
 * The transfer (locked), its quote's validity, its beneficiary (as beneficiaryInScope) and the
 * payout method payoutMethodId names among the beneficiary's, in one prepared statement:
 * four round trips before. Only the transfer is locked, as before; the rows read beside it are
 * ones its lock never guarded (a quote's validity does not change; a beneficiary's state or a
 * method's archiving may land a moment before or after, as it could between four statements).
 */
const submitRows = (tx: Tx) =>
  preparedOn(tx, "submit_rows", (e) =>
    e
      .select({ transfer: transfers, quoteValidUntil: quotes.validUntil, beneficiary: beneficiaries, storedMethod: payoutMethods })
      .from(transfers)
      .leftJoin(quotes, eq(quotes.id, transfers.quoteId))
      .leftJoin(beneficiaries, and(eq(beneficiaries.id, transfers.beneficiaryId), eq(beneficiaries.subscriptionId, transfers.subscriptionId)))
      .leftJoin(payoutMethods, and(eq(payoutMethods.id, sql.placeholder("payoutMethodId")), eq(payoutMethods.beneficiaryId, transfers.beneficiaryId)))
      .where(and(eq(transfers.id, sql.placeholder("transferId")), eq(transfers.subscriptionId, sql.placeholder("subscriptionId"))))
      .for("update", { of: transfers })
      .prepare("submit_rows"),
  );

/**
 * POST /v1/core/transfers/{id}/submit (spec 4.1 rule 9): format-level checks only, 202 with the
 * transfer still registered; the substantive checks run in the asynchronous fast-check.
 */
export async function submitTransfer(tx: Tx, input: SubmitInput & { subscriptionId: string; transferId: string; now: Date }) {
  const { now } = input;
  const payoutMethodId = input.payoutMethod.payoutMethodId;
  const [found] = await submitRows(tx).execute({
    transferId: input.transferId,
    subscriptionId: input.subscriptionId,
    payoutMethodId: payoutMethodId ?? null,
  });
  if (!found) throw transferNotFound();
  let row = await expireIfOverdue(tx, found.transfer, now);
  transferMachine.next(row.state, "submit");
  if (row.submittedAt)
    throw new DomainError("transfer.stateInvalid", {
      message: "This transfer was already submitted.",
      details: { currentState: row.state, failedCheck: "alreadySubmitted" },
    });
  // The transfer's quote always exists (a foreign key): its validity is never null.
  const quoteValidUntil = found.quoteValidUntil!;
  if (quoteValidUntil.getTime() < now.getTime()) {
    await transitionTransfer(tx, row, "submit.quoteExpired", now);
    throw new DomainError("transfer.quoteExpired", {
      message: "The quote expired before submission; the transfer is expired. Start again with a new quote.",
      details: { quoteId: row.quoteId, quoteExpiredAt: quoteValidUntil.toISOString() },
      keepChanges: true,
    });
  }
  if (input.beneficiaryId !== row.beneficiaryId) throw issue("validation.fieldInvalid", "beneficiaryId", "beneficiaryId must be the quote's beneficiary.");
  const beneficiary = found.beneficiary;
  if (!beneficiary) throw beneficiaryNotFound();
  await paymentToBeneficiaryCheck(tx, beneficiary, now);

  const { method, insert } = await resolvePayoutMethod(tx, row, input, now, found.storedMethod);
  // Above the threshold (the send amount in its currency) the originator's data travels with the
  // payout: refused without it, naming what is missing.
  if (await aboveOriginatorThreshold({ amount: row.originAmount, currency: row.originCurrency }, () => referenceRates(tx), now)) {
    const [customer] = await tx.select({ profile: customers.profile }).from(customers).where(eq(customers.id, row.customerId));
    checkOriginatorData((customer?.profile ?? null) as Parameters<typeof checkOriginatorData>[0]);
  }
  const delayMs = config().FAST_CHECK_DELAY_MS;
  const set = {
    payoutMethodId: method.id,
    purposeOfTransfer: input.purposeOfTransfer,
    submittedAt: now,
    fastCheckExpectedBy: addSeconds(now, (delayMs + 1000) / 1000),
  };
  const check = { runAt: addSeconds(now, delayMs / 1000), dedupeKey: dedupeKey("transfers.fastCheck", row.id) };
  // Written at commit: the new payout method, then the transfer pointing at it (the foreign key
  // transfers.payout_method_id, migration 0017), and the fast-check job.
  const effects = effectsOf(tx);
  await effects.atCommit(...(insert ? [insert] : []), tx.update(transfers).set(set).where(eq(transfers.id, row.id)));
  await effects.jobs.schedule("transfers.fastCheck", { transferId: row.id }, check);
  // The routed payout's aggregator checks the name on the account before the customer confirms.
  if (payoutProvider().routed)
    await effects.jobs.schedule("payouts.verifyPayee", { transferId: row.id }, { runAt: now, dedupeKey: dedupeKey("payouts.verifyPayee", row.id) });
  row = { ...row, ...set };
  return {
    transferId: row.id,
    transferStatus: expectState(row, "registered").state,
    beneficiaryId: row.beneficiaryId,
    payoutMethod: payoutMethodView(method),
    purposeOfTransfer: row.purposeOfTransfer,
    submittedAt: now.toISOString(),
    fastCheckExpectedBy: row.fastCheckExpectedBy!.toISOString(),
    nextStep: nextStepFor("registered"),
  };
}
