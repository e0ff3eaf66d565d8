import { and, desc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db, Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { validationError } from "@/lib/platform/errors";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { decodeCursor, encodeCursor, invalidCursor } from "@/lib/platform/pagination/cursor";
import { serviceSecret } from "@/lib/platform/secrets";
import { beneficiaryDetail, beneficiaryInScope, beneficiaryView, transitionBeneficiary } from "./records";
import { beneficiaryMachine, type BeneficiaryState } from "./state-machine";
import { expectState } from "@/lib/platform/state-machine/define";
import type { BeneficiaryAddress } from "./address";
import type { Relationship } from "./relationships";
import { effectsOf } from "@/lib/platform/unit-of-work";

export interface BeneficiaryInput {
  firstName: string;
  lastName: string;
  dateOfBirth?: string;
  nationality?: string;
  countryOfResidence: string;
  relationshipToCustomer: Relationship;
  address?: BeneficiaryAddress;
}

/** POST /v1/core/beneficiaries: 202 PENDING, screening asynchronous, no de-duplication (spec 2.4). */
export async function createBeneficiary(tx: Tx, input: { subscriptionId: string; beneficiary: BeneficiaryInput; now: Date }) {
  const { address, countryOfResidence } = input.beneficiary;
  if (address && address.country !== countryOfResidence) {
    const message = "address.country must equal countryOfResidence.";
    throw validationError([{ field: "address.country", code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);
  }
  const id = newId("ben");
  const state = beneficiaryMachine.next("none", "create").to;
  const [row] = await tx
    .insert(beneficiaries)
    .values({ id, subscriptionId: input.subscriptionId, ...input.beneficiary, state, createdAt: input.now, updatedAt: input.now })
    .returning();
  await effectsOf(tx).jobs.schedule(
    "beneficiaries.screen",
    { beneficiaryId: id },
    {
      runAt: addSeconds(input.now, config().SCREENING_DELAY_MS / 1000),
      dedupeKey: dedupeKey("beneficiaries.screen", id),
    },
  );
  return beneficiaryView(tx, row);
}

export async function readBeneficiary(
  db: Executor,
  input: { subscriptionId: string; beneficiaryId: string },
  // Already read with the caller (records.ts beneficiaryDetailWithCaller), when it was.
  read?: Awaited<ReturnType<typeof beneficiaryDetail>>,
) {
  return read ?? beneficiaryDetail(db, input.subscriptionId, input.beneficiaryId);
}

/** POST /v1/core/beneficiaries/{id}/archive: one way; BLOCKED refuses (beneficiary.archiveBlocked). */
export async function archiveBeneficiary(tx: Tx, input: { subscriptionId: string; beneficiaryId: string; now: Date }) {
  const row = await beneficiaryInScope(tx, input.subscriptionId, input.beneficiaryId, true);
  const archived = await transitionBeneficiary(tx, row, "archive", input.now, { set: { archivedAt: input.now } });
  return { beneficiaryId: archived.id, state: expectState(archived, "ARCHIVED").state, archivedAt: input.now.toISOString() };
}

interface Cursor {
  /** lastUsedAt (ms) of the last item, or null for the never-used tail. */
  u: number | null;
  c: number;
  i: string;
  /** The subscription the cursor was issued to: another customer's cursor is refused. */
  s: string;
}

export const DEFAULT_BENEFICIARY_STATES: readonly BeneficiaryState[] = ["VALID", "MONITORED", "BLOCKED", "PENDING"];

/**
 * GET /v1/core/beneficiaries: states filter (default excludes ARCHIVED), fixed sort: most recently
 * used first, then never-used by createdAt descending (spec 4.1 rule 6); keyset pagination.
 */
export async function listBeneficiaries(db: Db | Tx, input: { subscriptionId: string; states?: readonly BeneficiaryState[]; limit: number; cursor?: string }) {
  const secret = await serviceSecret(db, "cursor");
  const states = input.states ?? DEFAULT_BENEFICIARY_STATES;
  const conditions: SQL[] = [eq(beneficiaries.subscriptionId, input.subscriptionId), inArray(beneficiaries.state, states)];
  if (input.cursor) {
    const c = decodeCursor<Cursor>(secret, input.cursor);
    if (c.s !== input.subscriptionId) throw invalidCursor();
    const createdBefore = or(lt(beneficiaries.createdAt, new Date(c.c)), and(eq(beneficiaries.createdAt, new Date(c.c)), lt(beneficiaries.id, c.i)))!;
    conditions.push(
      c.u === null
        ? and(isNull(beneficiaries.lastUsedAt), createdBefore)!
        : or(lt(beneficiaries.lastUsedAt, new Date(c.u)), and(eq(beneficiaries.lastUsedAt, new Date(c.u)), createdBefore), isNull(beneficiaries.lastUsedAt))!,
    );
  }
  const rows = await db
    .select()
    .from(beneficiaries)
    .where(and(...conditions))
    .orderBy(sql`${beneficiaries.lastUsedAt} desc nulls last`, desc(beneficiaries.createdAt), desc(beneficiaries.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > input.limit && last
      ? encodeCursor(secret, { u: last.lastUsedAt?.getTime() ?? null, c: last.createdAt.getTime(), i: last.id, s: input.subscriptionId } satisfies Cursor)
      : null;
  return { items: await Promise.all(page.map((row) => beneficiaryView(db, row))), nextCursor };
}
