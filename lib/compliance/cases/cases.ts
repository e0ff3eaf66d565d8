/**
 * Compliance cases: one case per customer gathers every alert about them.
 *
 * The entry point for every source of alerts (the fast-check's review rules and monitoring, the
 * screening jobs, compliance holds) is
 *
 *   raiseAlert(tx, { customerId, kind, transferId?, beneficiaryId?, screeningCaseId?, evaluationId?,
 *                    summary, shadow?, now?, by? }): Promise<RaisedAlert>
 *
 * called inside the caller's transaction (its unit of work): it locks the customer's case not yet
 * closed (FOR UPDATE), joins it or opens a new one (OPEN, due 30 days after detection), records the
 * alert with what it links (transfer, beneficiary, screening case, monitoring evaluation), and
 * writes an audit entry through the unit's effects (effectsOf(tx)), by `by` or the system. A shadow
 * alert (monitoring in shadow mode; `shadow: true` or kind SHADOW_ALERT) changes nothing: it joins
 * the open case if there is one, else is recorded on the customer alone, and never opens a case.
 * The same alert twice (kind and links) on one case is recorded once. Nothing here reaches the
 * partner API, webhooks, the events API or a webview (no tipping off): no event is emitted.
 *
 * The analyst's moves (take, assign, investigate, close with an outcome, notes, links) follow; the
 * machine is ./state-machine.ts, the report drafted on RISK_CONFIRMED ./reports.ts.
 */
import { and, eq, isNull, ne } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, complianceAlerts, complianceCaseNotes, complianceCases, customerRiskFlags, subscriptions, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError, notFound } from "@/lib/platform/errors";
import type { Operator } from "@/lib/platform/audit";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { requestRating } from "@/lib/identity";
import { draftReport, type ReportRow } from "./reports";
import { CLOSE_TRIGGERS, complianceCaseMachine, type AlertKind, type CaseOutcome, type RiskFlag } from "./state-machine";

export type ComplianceCaseRow = typeof complianceCases.$inferSelect;
export type ComplianceAlertRow = typeof complianceAlerts.$inferSelect;

/** Days from detection to the case's decision (and the report's filing): docs/decisions.md. */
export const CASE_DUE_DAYS = 30;

/** The author of the audit entries of alerts raised by jobs (no operator acts there). */
export const SYSTEM_ACTOR: Operator = { id: "system:compliance", email: "system:compliance", name: "Compliance alerts", role: "reviewer" };

/** `days` calendar days after `from`, as YYYY-MM-DD (UTC). */
export function dueDate(from: Date, days: number = CASE_DUE_DAYS): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

export interface RaiseAlertInput {
  customerId: string;
  kind: AlertKind;
  transferId?: string | null;
  beneficiaryId?: string | null;
  screeningCaseId?: string | null;
  /** A monitoring evaluation's id (lib/compliance/monitoring). */
  evaluationId?: string | null;
  /** One line for the analyst: what happened (console only). */
  summary: string;
  /** Monitoring in shadow mode: recorded, changes nothing, never opens a case. */
  shadow?: boolean;
  /** The unit's instant (default: the clock). */
  now?: Date;
  /** The operator acting (a console hold, a link); default the system. */
  by?: Operator;
}

export interface RaisedAlert {
  /** The case the alert joined or opened; undefined for a shadow alert on a customer with no open case. */
  case: ComplianceCaseRow | undefined;
  alert: ComplianceAlertRow;
  /** Whether this alert opened the case. */
  opened: boolean;
}

/** The customer's case not yet closed, locked (FOR UPDATE), if any. */
export async function lockOpenCaseOf(tx: Tx, customerId: string): Promise<ComplianceCaseRow | undefined> {
  const [row] = await tx
    .select()
    .from(complianceCases)
    .where(and(eq(complianceCases.customerId, customerId), ne(complianceCases.state, "CLOSED")))
    .for("update");
  return row;
}

/** A case, locked for an analyst's move. */
export async function lockComplianceCase(tx: Tx, caseId: string): Promise<ComplianceCaseRow> {
  const [row] = await tx.select().from(complianceCases).where(eq(complianceCases.id, caseId)).for("update");
  if (!row) throw notFound("complianceCase", "No such compliance case.");
  return row;
}

/** Opens or joins the customer's case with one alert (see the file's header). */
export async function raiseAlert(tx: Tx, input: RaiseAlertInput): Promise<RaisedAlert> {
  const now = input.now ?? clock.now();
  const shadow = input.shadow === true || input.kind === "SHADOW_ALERT";
  let open = await lockOpenCaseOf(tx, input.customerId);
  let opened = false;
  if (!open && !shadow) {
    const step = complianceCaseMachine.next("none", "alert.raised");
    // A concurrent alert for the same customer may insert first: the one-open-case index makes this
    // insert do nothing, and the select below (a new snapshot, after that insert committed) finds it.
    const [created] = await tx
      .insert(complianceCases)
      .values({
        id: newId("ccase"),
        customerId: input.customerId,
        state: step.to,
        detectedAt: now,
        dueOn: dueDate(now),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    opened = created !== undefined;
    open = created ?? (await lockOpenCaseOf(tx, input.customerId));
  } else if (open && !shadow) {
    complianceCaseMachine.next(open.state, "alert.raised"); // accepted, state unchanged
  }

  const links = {
    transferId: input.transferId ?? null,
    beneficiaryId: input.beneficiaryId ?? null,
    screeningCaseId: input.screeningCaseId ?? null,
    evaluationId: input.evaluationId ?? null,
  };
  if (open && !opened) {
    const [same] = await tx
      .select()
      .from(complianceAlerts)
      .where(
        and(
          eq(complianceAlerts.caseId, open.id),
          eq(complianceAlerts.kind, input.kind),
          eq(complianceAlerts.shadow, shadow),
          ...Object.entries(links).map(([k, v]) => {
            const column = complianceAlerts[k as keyof typeof links];
            return v === null ? isNull(column) : eq(column, v);
          }),
        ),
      )
      .limit(1);
    if (same) return { case: open, alert: same, opened: false };
  }

  const by = input.by ?? SYSTEM_ACTOR;
  const [alert] = await tx
    .insert(complianceAlerts)
    .values({
      id: newId("calert"),
      caseId: open?.id ?? null,
      customerId: input.customerId,
      kind: input.kind,
      shadow,
      ...links,
      summary: input.summary,
      raisedBy: input.by ? input.by.email : "system",
      raisedAt: now,
    })
    .returning();
  if (open && !opened) {
    await tx.update(complianceCases).set({ updatedAt: now }).where(eq(complianceCases.id, open.id));
  }
  await effectsOf(tx).audit.record(
    {
      action: opened ? "complianceCase.opened" : shadow ? "complianceCase.shadowAlert" : "complianceCase.alert",
      targetType: open ? "complianceCase" : "customer",
      targetId: open?.id ?? input.customerId,
      before: open && !opened ? { caseId: open.id, state: open.state } : null,
      after: {
        ...(open ? { caseId: open.id, state: open.state, dueOn: open.dueOn } : {}),
        alertId: alert.id,
        kind: input.kind,
        shadow,
        ...Object.fromEntries(Object.entries(links).filter(([, v]) => v !== null)),
      },
      reason: input.summary,
    },
    by,
  );
  // An open case, and an alert of a kind the rating reads (a PEP match), change the customer's rating.
  if (!shadow) await requestRating(tx, input.customerId, now, opened ? "case.opened" : "case.alert");
  return { case: open, alert, opened };
}

/** "Take": the case is assigned to the operator acting; "assign": to another (reviewers and admins). */
export async function assignCase(tx: Tx, input: { caseId: string; assignee: { id: string; email: string }; now: Date }): Promise<ComplianceCaseRow> {
  const row = await lockComplianceCase(tx, input.caseId);
  if (row.state === "CLOSED") {
    throw new DomainError("complianceCase.stateInvalid", { message: "A closed case is not assigned.", details: { currentState: row.state } });
  }
  const [updated] = await tx
    .update(complianceCases)
    .set({ assigneeId: input.assignee.id, assigneeEmail: input.assignee.email, updatedAt: input.now })
    .where(eq(complianceCases.id, row.id))
    .returning();
  return updated;
}

/** OPEN → INVESTIGATING; an unassigned case is taken by the operator who starts it. */
export async function investigateCase(tx: Tx, input: { caseId: string; operator: { id: string; email: string }; now: Date }): Promise<ComplianceCaseRow> {
  const row = await lockComplianceCase(tx, input.caseId);
  const step = complianceCaseMachine.next(row.state, "operator.investigate");
  const [updated] = await tx
    .update(complianceCases)
    .set({
      state: step.to,
      ...(row.assigneeId ? {} : { assigneeId: input.operator.id, assigneeEmail: input.operator.email }),
      updatedAt: input.now,
    })
    .where(eq(complianceCases.id, row.id))
    .returning();
  return updated;
}

export interface CloseCaseResult {
  case: ComplianceCaseRow;
  /** RISK_CONFIRMED: the suspicious-activity report drafted. */
  report?: ReportRow;
}

/**
 * INVESTIGATING → CLOSED with the analyst's outcome and narrative. RISK_CONFIRMED drafts the
 * suspicious-activity report (./reports.ts) and flags the customer RISK_CONFIRMED. Transfers the
 * case links are not moved here: each is resolved on its own by the existing review and hold
 * actions (the transfer machine's triggers).
 */
export async function closeCase(
  tx: Tx,
  input: { caseId: string; outcome: CaseOutcome; narrative: string; operator: { id: string; email: string }; now: Date },
): Promise<CloseCaseResult> {
  const row = await lockComplianceCase(tx, input.caseId);
  const step = complianceCaseMachine.next(row.state, CLOSE_TRIGGERS[input.outcome]);
  const [closed] = await tx
    .update(complianceCases)
    .set({
      state: step.to,
      outcome: step.outcome as CaseOutcome,
      narrative: input.narrative,
      closedAt: input.now,
      closedBy: input.operator.id,
      closedByEmail: input.operator.email,
      updatedAt: input.now,
    })
    .where(eq(complianceCases.id, row.id))
    .returning();
  await requestRating(tx, closed.customerId, input.now, "case.closed");
  if (input.outcome !== "RISK_CONFIRMED") return { case: closed };
  await setRiskFlag(tx, { customerId: closed.customerId, flag: "RISK_CONFIRMED", caseId: closed.id, by: input.operator.email, now: input.now });
  const report = await draftReport(tx, closed, input.operator.email, input.now);
  return { case: closed, report };
}

/** An analyst's note (append-only: the table refuses changes); any state, closed included. */
export async function addNote(tx: Tx, input: { caseId: string; body: string; operator: { id: string; email: string }; now: Date }) {
  const row = await lockComplianceCase(tx, input.caseId);
  const [note] = await tx
    .insert(complianceCaseNotes)
    .values({ id: newId("cnote"), caseId: row.id, authorId: input.operator.id, authorEmail: input.operator.email, body: input.body, createdAt: input.now })
    .returning();
  await tx.update(complianceCases).set({ updatedAt: input.now }).where(eq(complianceCases.id, row.id));
  return note;
}

/**
 * An analyst links a transfer or a beneficiary of the case's customer to a case not yet closed (an
 * ANALYST_LINK alert). Another customer's transfer or beneficiary is not found.
 */
export async function linkToCase(
  tx: Tx,
  input: { caseId: string; transferId?: string; beneficiaryId?: string; summary: string; operator: Operator; now: Date },
): Promise<RaisedAlert> {
  const row = await lockComplianceCase(tx, input.caseId);
  complianceCaseMachine.next(row.state, "alert.raised");
  if (input.transferId) {
    const [t] = await tx.select({ customerId: transfers.customerId }).from(transfers).where(eq(transfers.id, input.transferId));
    if (t?.customerId !== row.customerId) throw notFound("transfer");
  }
  if (input.beneficiaryId) {
    const [b] = await tx
      .select({ customerId: subscriptions.customerId })
      .from(beneficiaries)
      .innerJoin(subscriptions, eq(subscriptions.id, beneficiaries.subscriptionId))
      .where(eq(beneficiaries.id, input.beneficiaryId));
    if (b?.customerId !== row.customerId) throw notFound("beneficiary");
  }
  return raiseAlert(tx, {
    customerId: row.customerId,
    kind: "ANALYST_LINK",
    transferId: input.transferId,
    beneficiaryId: input.beneficiaryId,
    summary: input.summary,
    now: input.now,
    by: input.operator,
  });
}

/** A risk flag on the customer's console record (once while it stands: setting it again does nothing). */
export async function setRiskFlag(tx: Tx, input: { customerId: string; flag: RiskFlag; caseId?: string | null; by: string; now: Date }): Promise<void> {
  await tx
    .insert(customerRiskFlags)
    .values({ id: newId("rflag"), customerId: input.customerId, flag: input.flag, caseId: input.caseId ?? null, setByEmail: input.by, createdAt: input.now })
    .onConflictDoNothing();
  await requestRating(tx, input.customerId, input.now, "flag.set");
}

export type RiskFlagRow = typeof customerRiskFlags.$inferSelect;

/**
 * An analyst clears a standing risk flag of the customer, with a reason. The row is kept (the
 * table refuses DELETE and any change to a cleared flag): the customer's page shows who set it, who
 * cleared it, when and why; the flag may be set again later (a new row).
 */
export async function clearRiskFlag(
  tx: Tx,
  input: { customerId: string; flagId: string; reason: string; operator: Operator; now: Date },
): Promise<RiskFlagRow> {
  const [row] = await tx
    .select()
    .from(customerRiskFlags)
    .where(and(eq(customerRiskFlags.id, input.flagId), eq(customerRiskFlags.customerId, input.customerId)))
    .for("update");
  if (!row) throw notFound("riskFlag", "No such risk flag on this customer.");
  if (row.clearedAt) {
    throw new DomainError("riskFlag.stateInvalid", {
      message: `This ${row.flag} flag was already cleared by ${row.clearedByEmail}.`,
      details: { currentState: "CLEARED" },
    });
  }
  const [cleared] = await tx
    .update(customerRiskFlags)
    .set({ clearedAt: input.now, clearedById: input.operator.id, clearedByEmail: input.operator.email, clearReason: input.reason })
    .where(eq(customerRiskFlags.id, row.id))
    .returning();
  await requestRating(tx, input.customerId, input.now, "flag.cleared");
  return cleared;
}
