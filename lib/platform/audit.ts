import { newId } from "@/db/ids";
import type { auditLog } from "@/db/schema";
import type { OperatorRole } from "@/db/schema/operators";

/**
 * Who an audit entry names: the operator acting (or the CLI's actor, lib/operations/operators/audit.ts
 * `cliActor`). Declared by the platform because the unit of work carries the actor and writes the
 * audit log at commit; operator accounts themselves are lib/operations/operators/.
 */
export interface Operator {
  id: string;
  email: string;
  name: string;
  role: OperatorRole;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string | null;
}

/**
 * The audit-log row of an entry. Written only with the unit of work's effects at commit
 * (`effectsOf(tx).audit.record`), in the transaction that performs the action: no action without
 * its entry, and one path for every audit write.
 */
export function auditRow(operator: Operator, entry: AuditEntry, now: Date): typeof auditLog.$inferInsert {
  return {
    id: newId("aud"),
    operatorId: operator.id,
    operatorEmail: operator.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason ?? null,
    at: now,
  };
}
