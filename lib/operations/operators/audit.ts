import { userInfo } from "node:os";
import { and, desc, eq, gte, ilike, lte, or, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { auditLog } from "@/db/schema";
import type { Operator } from "./records";

export { auditRow, type AuditEntry } from "@/lib/platform/audit";

/**
 * The actor of a command-line import (npm run statements:import, ...): `cli:<OS user>`, so the
 * audit log says who ran it as it says which operator clicked. The shell's
 * user is all a CLI knows; the role only satisfies the type (nothing is authorised by it).
 */
export function cliActor(): Operator {
  const id = `cli:${osUser()}`;
  return { id, email: id, name: id, role: "admin" };
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    // A uid without a passwd entry (some containers): the environment, else the number.
    return process.env.USER || process.env.LOGNAME || `uid-${process.getuid?.() ?? "unknown"}`;
  }
}

export interface AuditFilter {
  q?: string;
  action?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export async function listAudit(db: Executor, f: AuditFilter) {
  const conditions: SQL[] = [];
  if (f.q) conditions.push(or(ilike(auditLog.operatorEmail, `%${f.q}%`), eq(auditLog.targetId, f.q))!);
  if (f.action) conditions.push(eq(auditLog.action, f.action));
  if (f.from) conditions.push(gte(auditLog.at, f.from));
  if (f.to) conditions.push(lte(auditLog.at, f.to));
  return db
    .select()
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(f.limit)
    .offset(f.offset);
}
