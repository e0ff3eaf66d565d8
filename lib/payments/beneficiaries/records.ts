import { and, eq, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { prepared } from "@/db/prepared";
import type { Executor, Tx } from "@/db";
import { beneficiaries, payoutMethods } from "@/db/schema";
import type { ReadWithCaller } from "@/lib/platform/read-with-caller";
import { DomainError } from "@/lib/platform/errors";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { beneficiaryMachine, type BeneficiaryState, type BeneficiaryTrigger } from "./state-machine";

export type BeneficiaryRow = typeof beneficiaries.$inferSelect;

export const beneficiaryNotFound = () => new DomainError("beneficiary.notFound", { message: "No such beneficiary." });

/** A beneficiary of the calling subscription; another customer's answers exactly like a missing one. */
export async function beneficiaryInScope(db: Executor, subscriptionId: string, beneficiaryId: string, lock = false): Promise<BeneficiaryRow> {
  const q = (e: Executor) =>
    e
      .select()
      .from(beneficiaries)
      .where(and(eq(beneficiaries.id, sql.placeholder("beneficiaryId")), eq(beneficiaries.subscriptionId, sql.placeholder("subscriptionId"))));
  const query = lock
    ? q(db).for("update").prepare("beneficiary_in_scope_locked")
    : prepared(db, "beneficiary_in_scope", (e) => q(e).prepare("beneficiary_in_scope"));
  const [row] = await query.execute({ beneficiaryId, subscriptionId });
  if (!row) throw beneficiaryNotFound();
  return row;
}

/**
 * The one way a beneficiary changes state: the transition table decides, the row (locked by the
 * caller) is updated and beneficiary.state.changed is emitted in the same transaction.
 */
export async function transitionBeneficiary(
  tx: Tx,
  row: BeneficiaryRow,
  trigger: BeneficiaryTrigger,
  now: Date,
  opts: { target?: BeneficiaryState; set?: Partial<BeneficiaryRow> } = {},
): Promise<BeneficiaryRow> {
  const step = beneficiaryMachine.next(row.state, trigger, { target: opts.target });
  const [updated] = await tx
    .update(beneficiaries)
    .set({ ...opts.set, state: step.to, updatedAt: now })
    .where(eq(beneficiaries.id, row.id))
    .returning();
  if (step.to !== row.state) {
    await effectsOf(tx).events.emit({
      subscriptionId: row.subscriptionId,
      eventType: "beneficiary.state.changed",
      data: { beneficiaryId: row.id, state: step.to, previousState: row.state },
      now,
    });
  }
  return updated;
}

/** Customer action hint per state (spec 2.4 detail; spec 7 hint values). */
export function customerActionHint(state: string): string | null {
  if (state === "PENDING") return "await_beneficiary_verification";
  if (state === "BLOCKED" || state === "ARCHIVED") return "select_different_beneficiary";
  return null;
}

/** PayoutMethodSummary / PayoutMethodMasked (spec 2.4): only ever the masked identifier. */
export function payoutMethodView(m: typeof payoutMethods.$inferSelect) {
  return {
    payoutMethodId: m.id,
    methodType: m.methodType,
    corridor: m.corridor,
    destinationIdentifierMasked: m.destinationIdentifierMasked,
    addedAt: m.addedAt.toISOString(),
    archived: m.archived,
  };
}

/** Detail and list item of decisions section 5. Screening evidence never leaves the service. */
export async function beneficiaryView(db: Executor, row: BeneficiaryRow) {
  const methods = await prepared(db, "beneficiary_payout_methods", (e) =>
    e
      .select()
      .from(payoutMethods)
      .where(eq(payoutMethods.beneficiaryId, sql.placeholder("beneficiaryId")))
      .orderBy(payoutMethods.addedAt)
      .prepare("beneficiary_payout_methods"),
  ).execute({ beneficiaryId: row.id });
  return beneficiaryBody(row, methods);
}

/**
 * The detail of a beneficiary of the calling subscription: the row and its payout methods in one
 * statement (a row per method), so a read outside a transaction serves one snapshot in one round
 * trip. Another customer's answers exactly like a missing one.
 */
export async function beneficiaryDetail(db: Executor, subscriptionId: string, beneficiaryId: string) {
  const rows = await prepared(db, "beneficiary_with_methods", (e) =>
    e
      .select(detailFields)
      .from(beneficiaries)
      .leftJoin(payoutMethods, eq(payoutMethods.beneficiaryId, beneficiaries.id))
      .where(and(eq(beneficiaries.id, sql.placeholder("beneficiaryId")), eq(beneficiaries.subscriptionId, sql.placeholder("subscriptionId"))))
      .orderBy(payoutMethods.addedAt)
      .prepare("beneficiary_with_methods"),
  ).execute({ beneficiaryId, subscriptionId });
  return detailOf(rows);
}

const detailFields = { beneficiary: beneficiaries, method: payoutMethods };
type DetailRow = { beneficiary: BeneficiaryRow; method: typeof payoutMethods.$inferSelect | null };

/**
 * The beneficiary the path names, by its primary key alone, for a join to the caller: planned on
 * its own (its LIMIT keeps it out of the join), a probe of beneficiaries_pkey, never a walk of the
 * customer's beneficiaries by one of their subscription indexes (lib/payments/transfers/detail-query.ts
 * transferById says why). Named like the table, so detailFields' columns are this subquery's.
 */
const beneficiaryById = new QueryBuilder()
  .select()
  .from(beneficiaries)
  .where(eq(beneficiaries.id, sql.placeholder("beneficiaryId")))
  .limit(1)
  .as("beneficiaries");

/**
 * The same read in its caller's statement: the beneficiary keyed by the path's id, then
 * checked against the token's subscription, a row per payout method; another customer's is not
 * found, as above.
 */
export const beneficiaryDetailWithCaller: ReadWithCaller<{ params: { beneficiaryId: string } }, ReturnType<typeof beneficiaryBody>> = {
  name: "beneficiary_with_methods",
  fields: detailFields,
  join: (query, caller) =>
    query
      .leftJoin(beneficiaryById, eq(beneficiaryById.subscriptionId, caller.subscriptionId))
      .leftJoin(payoutMethods, eq(payoutMethods.beneficiaryId, beneficiaries.id))
      .orderBy(payoutMethods.addedAt),
  values: ({ params }) => ({ beneficiaryId: params.beneficiaryId }),
  // Without a beneficiary its nullable join answers one row with beneficiary: null.
  answer: (rows) => detailOf(rows[0]?.beneficiary ? (rows as unknown as DetailRow[]) : []),
};

function detailOf(rows: DetailRow[]) {
  if (!rows.length) throw beneficiaryNotFound();
  return beneficiaryBody(
    rows[0].beneficiary,
    rows.flatMap((r) => (r.method ? [r.method] : [])),
  );
}

function beneficiaryBody(row: BeneficiaryRow, methods: (typeof payoutMethods.$inferSelect)[]) {
  return {
    beneficiaryId: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    dateOfBirth: row.dateOfBirth,
    nationality: row.nationality,
    countryOfResidence: row.countryOfResidence,
    relationshipToCustomer: row.relationshipToCustomer,
    state: row.state,
    payoutMethods: methods.map(payoutMethodView),
    customerActionHint: customerActionHint(row.state),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
