import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { operators } from "@/db/schema";
import { secondFactorRequired } from "@/lib/operations/operators/accounts";
import type { ActingRole, Operator, OperatorRole } from "@/lib/operations/operators/records";
import { ready } from "@/lib/platform/ready";
import { authOptions } from "./auth-options";

/**
 * The signed-in operator, checked on the server for every console page and action: no session →
 * sign-in page; an admin-only page for a reviewer → the forbidden page; `changes` (every action,
 * lib/operations/console/action.ts) for an auditor → the forbidden page (an auditor reads every page). The operator row is
 * re-read, so a disabled operator, or one whose password or second factor an admin reset (the
 * session's epoch is then behind the row's), loses access at once. An operator
 * who must have a second factor and has none is sent to set it up (`enrolling` is that page).
 */
export async function requireOperator(role: ActingRole = "reviewer", options: { enrolling?: boolean; changes?: boolean } = {}): Promise<Operator> {
  const session = await getServerSession(await authOptions());
  const claims = (session as { operator?: { id?: string; sessionEpoch?: number } } | null)?.operator;
  if (!claims?.id) redirect("/console/login");
  const [row] = await (await ready()).select().from(operators).where(eq(operators.id, claims.id));
  if (!row || row.disabledAt || row.sessionEpoch !== (claims.sessionEpoch ?? 0)) redirect("/console/login?ended=1");
  if (!options.enrolling && !row.totpEnrolledAt && secondFactorRequired(row)) redirect("/console/enrol");
  // An auditor reads every page (an examiner sees what an admin sees) and changes nothing.
  if (row.role === "auditor" ? options.changes : role === "admin" && row.role !== "admin") redirect("/console/forbidden");
  return { id: row.id, email: row.email, name: row.name, role: row.role as OperatorRole };
}
