import { eq } from "drizzle-orm";
import type { Db, Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { operators } from "@/db/schema";
import { hashPassword, verifyPassword } from "@/lib/identity";
import { clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import type { Operator } from "@/lib/platform/audit";
import type { OperatorRole } from "@/db/schema/operators";

export type { Operator } from "@/lib/platform/audit";
export type { OperatorRole } from "@/db/schema/operators";

/** The roles that may act (what a command or an action may require). */
export type ActingRole = Exclude<OperatorRole, "auditor">;

/** Seeds the first admin from OPERATOR_EMAIL / OPERATOR_PASSWORD (sandbox defaults); once. */
export async function seedOperator(db: Db): Promise<void> {
  const { OPERATOR_EMAIL: email, OPERATOR_PASSWORD: password } = config();
  if (!email || !password) return;
  const [existing] = await db.select({ id: operators.id }).from(operators).where(eq(operators.email, email.toLowerCase()));
  if (existing) return;
  await db
    .insert(operators)
    .values({
      id: newId("op"),
      email: email.toLowerCase(),
      name: "Administrator",
      role: "admin",
      passwordHash: await hashPassword(password),
      createdAt: clock.now(),
    })
    .onConflictDoNothing();
}

/** The operator for an email and password, or null (same time either way). */
export async function verifyOperator(db: Executor, email: string, password: string): Promise<Operator | null> {
  const [row] = await db.select().from(operators).where(eq(operators.email, email.trim().toLowerCase()));
  const ok = await verifyPassword(row && !row.disabledAt ? row.passwordHash : null, password);
  return ok && row ? { id: row.id, email: row.email, name: row.name, role: row.role as OperatorRole } : null;
}

export async function createOperator(tx: Tx, input: { email: string; name: string; role: OperatorRole; password: string; now: Date }): Promise<Operator> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.email, email));
  if (existing)
    throw new DomainError("validation.fieldInvalid", {
      message: "An operator with this email exists.",
      details: { issues: [{ field: "email", code: "validation.fieldInvalid" }] },
    });
  const id = newId("op");
  await tx.insert(operators).values({ id, email, name: input.name, role: input.role, passwordHash: await hashPassword(input.password), createdAt: input.now });
  return { id, email, name: input.name, role: input.role };
}

export async function listOperators(db: Executor) {
  return db
    .select({
      id: operators.id,
      email: operators.email,
      name: operators.name,
      role: operators.role,
      createdAt: operators.createdAt,
      disabledAt: operators.disabledAt,
      lastSignInAt: operators.lastSignInAt,
      totpEnrolledAt: operators.totpEnrolledAt,
    })
    .from(operators)
    .orderBy(operators.createdAt);
}

/** The operator with this e-mail (a compliance case is assigned by it), or undefined. */
export async function operatorByEmail(db: Executor, email: string) {
  const [row] = await db.select().from(operators).where(eq(operators.email, email.toLowerCase()));
  return row;
}
