/**
 * Screening cases: a close match stops the money until a human clears it.
 *
 * A CLOSE_MATCH leaves the subject (beneficiary or customer) MONITORED, as the spec allows, and
 * opens a case with the evidence. While it is open, the fast-check sends every transfer of the
 * subject to onreview (fast-check-job.ts), and a transfer already past the fast-check is put on
 * compliance hold here. The operator decides: FALSE_POSITIVE restores what the case held and the
 * same subject/entry pair is not raised again until the entry's content changes; TRUE_MATCH
 * blocks the subject, rejects its transfers and blocks (not refunds) the money received.
 * Console only: nothing of a case reaches the partner API.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, sanctionsAliases, sanctionsEntries, screeningCases, transfers, type CaseEntry, type ScreeningEvidence } from "@/db/schema";
import { holdTransfer } from "../cases/hold";
import { flagCustomer, transitionBeneficiary, releaseTransfer, transitionTransfer, type TransferRow, HOLDABLE, type TransferState } from "@/lib/payments";
import { changeCustomer, lockCustomer } from "@/lib/identity";
import { raiseAlert } from "@/lib/compliance/cases/cases";
import { notFound } from "@/lib/platform/errors";
import type { ScreeningOutcome } from "@/lib/compliance/screening/provider";
import { CASE_DECISIONS, screeningCaseMachine, type CaseDecision } from "./state-machine";

export type ScreeningCaseRow = typeof screeningCases.$inferSelect;
export type CaseSubject = { subjectType: "beneficiary" | "customer"; subjectId: string; customerId: string };

/**
 * Transfers a new case puts on hold: past the fast-check and not paid out. Registered ones meet
 * the case at their fast-check (onreview); onreview ones already wait for a reviewer.
 */
const HOLD_ON_OPEN: readonly TransferState[] = ["validated", "funding", "funded", "topay", "reqpay"];
/**
 * Transfers a HIT (an exact match found by a list update: the subject is BLOCKED by then, decisions
 * 5) puts on hold: also those waiting for a reviewer, whose approval would otherwise let them on.
 * Registered ones are rejected by their fast-check (the subject is BLOCKED).
 */
const HOLD_ON_HIT: readonly TransferState[] = ["onreview", ...HOLD_ON_OPEN];
/** Every active state: what a true match rejects. */
const ACTIVE: readonly TransferState[] = [...HOLDABLE, "spended"];

/** Business days after `from` (Saturdays and Sundays skipped; public holidays are not known here). */
export function addBusinessDays(from: Date, days: number): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

/** The days within which a blocked-property report is due (OFAC: 10 business days, 31 CFR 501.603). */
export const BLOCKING_REPORT_BUSINESS_DAYS = 10;

const pairKey = (e: Pick<CaseEntry, "list" | "entryId" | "fingerprint">) => `${e.list}\u0000${e.entryId}\u0000${e.fingerprint}`;

/**
 * The fingerprint of a matched entry's published content (name, programmes, dates of birth,
 * nationalities, countries, remarks, aliases) in the list version that matched: a later version
 * with the same content has the same fingerprint. Entries not stored in the database (the sandbox
 * magic names) are fingerprinted by what the evidence says of them.
 */
async function caseEntries(db: Executor, evidence: readonly ScreeningEvidence[]): Promise<CaseEntry[]> {
  const out: CaseEntry[] = [];
  for (const e of evidence) {
    let content: unknown = { entryName: e.entryName, programs: e.programs };
    if (e.listVersionId) {
      const [entry] = await db
        .select()
        .from(sanctionsEntries)
        .where(and(eq(sanctionsEntries.versionId, e.listVersionId), eq(sanctionsEntries.entryId, e.entryId)));
      if (entry) {
        const aliases = await db
          .select({ name: sanctionsAliases.name })
          .from(sanctionsAliases)
          .where(and(eq(sanctionsAliases.versionId, e.listVersionId), eq(sanctionsAliases.entryId, e.entryId)));
        const { versionId: _version, ...published } = entry;
        content = { ...published, aliases: aliases.map((a) => a.name).sort() };
      }
    }
    const fingerprint = createHash("sha256").update(JSON.stringify(content)).digest("hex");
    out.push({ list: e.list, entryId: e.entryId, listVersionId: e.listVersionId, fingerprint });
  }
  return out;
}

/** Active transfers of the subject, locked, oldest first. */
async function lockSubjectTransfers(tx: Tx, subject: Pick<CaseSubject, "subjectType" | "subjectId">, states: readonly TransferState[]) {
  const column = subject.subjectType === "beneficiary" ? transfers.beneficiaryId : transfers.customerId;
  return tx
    .select()
    .from(transfers)
    .where(and(eq(column, subject.subjectId), inArray(transfers.state, [...states])))
    .orderBy(asc(transfers.id))
    .for("update");
}

/**
 * After a screening: a CLOSE_MATCH, or a HIT found by a rescreen (the screening jobs decide when),
 * opens a case for the entries not already cleared for this subject (same list, entry and
 * content), or adds them to the open case, and holds the subject's transfers past the fast-check.
 * A HIT on a list update matters most: money may already be moving to a now listed person, so its
 * transfers are held (spended) until a human confirms the match (funds then go to
 * blocked:sanctions) or clears it (an exact name can still be another person). Returns the open
 * case, or undefined when nothing is raised. Called by the screening jobs in their transaction,
 * with the subject row locked.
 */
export async function raiseCase(tx: Tx, subject: CaseSubject, outcome: ScreeningOutcome, now: Date): Promise<ScreeningCaseRow | undefined> {
  if (outcome.result === "CLEAR") return undefined;
  const evidence = outcome.evidence.filter((e) => e.result === outcome.result);
  const entries = await caseEntries(tx, evidence);
  const previous = await tx
    .select()
    .from(screeningCases)
    .where(and(eq(screeningCases.subjectType, subject.subjectType), eq(screeningCases.subjectId, subject.subjectId)))
    .for("update");
  const open = previous.find((c) => c.state === "OPEN");
  const known = new Set(previous.filter((c) => c.state !== "TRUE_MATCH").flatMap((c) => c.entries.map(pairKey)));
  const fresh = entries.map((entry, i) => ({ entry, evidence: evidence[i] })).filter(({ entry }) => !known.has(pairKey(entry)));
  if (fresh.length === 0) return open;

  const step = screeningCaseMachine.next(open ? open.state : "none", "screening.closeMatch");
  const held = await holdSubjectTransfers(tx, subject, outcome.result === "HIT" ? HOLD_ON_HIT : HOLD_ON_OPEN, now);
  if (open) {
    const [updated] = await tx
      .update(screeningCases)
      .set({
        entries: [...open.entries, ...fresh.map((f) => f.entry)],
        evidence: [...open.evidence, ...fresh.map((f) => f.evidence)],
        heldTransferIds: [...new Set([...open.heldTransferIds, ...held])],
        updatedAt: now,
      })
      .where(eq(screeningCases.id, open.id))
      .returning();
    await alertOfCase(tx, updated, outcome, now);
    return updated;
  }
  const [created] = await tx
    .insert(screeningCases)
    .values({
      id: newId("case"),
      ...subject,
      state: step.to,
      entries: fresh.map((f) => f.entry),
      evidence: fresh.map((f) => f.evidence),
      heldTransferIds: held,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await alertOfCase(tx, created, outcome, now);
  return created;
}

/** The customer's compliance case hears of it: a rescreen's exact match is a LIST_HIT. */
async function alertOfCase(tx: Tx, row: ScreeningCaseRow, outcome: ScreeningOutcome, now: Date): Promise<void> {
  const names = [...new Set(row.evidence.map((e) => e.entryName))].join("; ");
  await raiseAlert(tx, {
    customerId: row.customerId,
    kind: outcome.result === "HIT" ? "LIST_HIT" : "SCREENING_CASE",
    screeningCaseId: row.id,
    beneficiaryId: row.subjectType === "beneficiary" ? row.subjectId : null,
    summary: `${outcome.result === "HIT" ? "Exact" : "Close"} match of the ${row.subjectType}: ${names}`,
    now,
  });
}

async function holdSubjectTransfers(tx: Tx, subject: CaseSubject, states: readonly TransferState[], now: Date): Promise<string[]> {
  const rows = await lockSubjectTransfers(tx, subject, states);
  for (const row of rows) await holdTransfer(tx, row, now);
  return rows.map((r) => r.id);
}

/** A case for the console's decision, locked. */
export async function lockCase(tx: Tx, caseId: string): Promise<ScreeningCaseRow> {
  const [row] = await tx.select().from(screeningCases).where(eq(screeningCases.id, caseId)).for("update");
  if (!row) throw notFound("screeningCase", "No such screening case.");
  return row;
}

export interface CaseDecisionResult {
  case: ScreeningCaseRow;
  /** What happened to the subject's transfers (id → new state). */
  transfers: Record<string, TransferState>;
  /** The subject's state or status after the decision. */
  subjectState: string;
}

/**
 * The operator's decision on an open case (console; the caller writes the audit entry).
 * FALSE_POSITIVE: the subject is cleared (clearSubject), the transfers the case held are restored
 * (to where they were: onreview ones wait for a reviewer's approval). TRUE_MATCH: the subject is BLOCKED,
 * every active transfer of it rejected (TRF_COMPLIANCE_REJECTED) with the money received moved to
 * blocked:sanctions, the blocking report due in 10 business days, and (for a beneficiary) its
 * customer flagged for review.
 */
export async function decideCase(
  tx: Tx,
  input: { caseId: string; decision: CaseDecision; operator: { id: string; email: string }; reason: string; now: Date },
): Promise<CaseDecisionResult> {
  const { now } = input;
  const row = await lockCase(tx, input.caseId);
  const step = screeningCaseMachine.next(row.state, CASE_DECISIONS[input.decision]);
  const moved: Record<string, TransferState> = {};
  let subjectState: string;
  if (input.decision === "FALSE_POSITIVE") {
    for (const id of row.heldTransferIds) {
      const [t] = await tx.select().from(transfers).where(eq(transfers.id, id)).for("update");
      if (t?.state !== "spended") continue; // resolved meanwhile (an operator, a cancel, the network)
      moved[id] = (await releaseTransfer(tx, t, "RESTORE", now)).state;
    }
    subjectState = await clearSubject(tx, row, now);
  } else {
    subjectState = await blockSubject(tx, row, now);
    for (const t of await lockSubjectTransfers(tx, row, ACTIVE)) moved[t.id] = (await blockTransfer(tx, t, now)).state;
    if (row.subjectType === "beneficiary") {
      await flagCustomer(tx, { customerId: row.customerId, kind: "BENEFICIARY_TRUE_MATCH", beneficiaryId: row.subjectId, caseId: row.id, now });
    }
  }
  const [decided] = await tx
    .update(screeningCases)
    .set({
      state: step.to,
      decidedAt: now,
      decidedBy: input.operator.id,
      decidedByEmail: input.operator.email,
      decisionReason: input.reason,
      blockingReportDueOn: input.decision === "TRUE_MATCH" ? addBusinessDays(now, BLOCKING_REPORT_BUSINESS_DAYS) : null,
      updatedAt: now,
    })
    .where(eq(screeningCases.id, row.id))
    .returning();
  return { case: decided, transfers: moved, subjectState };
}

/**
 * The subject after a false positive (docs/decisions.md, Screening cases). A beneficiary BLOCKED
 * by the HIT the case was about becomes MONITORED (its screeningResult stays HIT, so a rescreen
 * with the same result does not block it again; a cleared MONITORED one stays MONITORED: that
 * only ever meant "look again", and moves no transfer to review). A customer MONITORED or
 * BLOCKED by the match gets the status it would have had without it: VALID when its KYC is
 * COMPLETED (otherwise as it is), because a MONITORED customer sends every transfer to review.
 */
async function clearSubject(tx: Tx, row: ScreeningCaseRow, now: Date): Promise<string> {
  if (row.subjectType === "customer") {
    const customer = await lockCustomer(tx, row.subjectId);
    if ((customer.status !== "MONITORED" && customer.status !== "BLOCKED") || customer.kycStatus !== "COMPLETED") return customer.status;
    return (await changeCustomer(tx, customer, { triggers: ["operator.setStatus"], target: "VALID" }, now)).status;
  }
  const [b] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, row.subjectId)).for("update");
  if (!b) return "unknown";
  if (b.state !== "BLOCKED") return b.state;
  return (await transitionBeneficiary(tx, b, "operator.decide", now, { target: "MONITORED" })).state;
}

/** The listed person's record is BLOCKED (through its state machine), and remembered as a hit. */
async function blockSubject(tx: Tx, row: ScreeningCaseRow, now: Date): Promise<string> {
  if (row.subjectType === "customer") {
    const customer = await lockCustomer(tx, row.subjectId);
    const updated = await changeCustomer(tx, customer, { triggers: ["screening.hit"] }, now);
    return updated.status;
  }
  const [b] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, row.subjectId)).for("update");
  if (!b) throw notFound("beneficiary");
  // An archived record stays archived (one-way); its transfers are still stopped below.
  if (b.state === "ARCHIVED" || b.state === "BLOCKED") return b.state;
  const updated = await transitionBeneficiary(tx, b, "operator.decide", now, { target: "BLOCKED", set: { screeningResult: "HIT" } });
  return updated.state;
}

/** Held first (so the rejection always leaves spended, remembering where the money was), then rejected with the funds blocked. */
async function blockTransfer(tx: Tx, row: TransferRow, now: Date): Promise<TransferRow> {
  const held = row.state === "spended" ? row : await holdTransfer(tx, row, now);
  return transitionTransfer(tx, held, "compliance.block", now, { rejectionReason: "TRF_COMPLIANCE_REJECTED" });
}
