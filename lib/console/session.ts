import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { operators } from "@/db/schema";
import type { Operator, OperatorRole } from "@/lib/operators/records";
import { ready } from "@/lib/platform/ready";
import { authOptions } from "./auth-options";

/**
 * The signed-in operator, checked on the server for every console page and action: no session →
 * sign-in page; an admin-only page for a reviewer → the forbidden page. The operator row is
 * re-read so a disabled operator loses access at once.
 */
export async function requireOperator(role: OperatorRole = "reviewer"): Promise<Operator> {
  const session = await getServerSession(await authOptions());
  const id = (session as { operator?: { id?: string } } | null)?.operator?.id;
  if (!id) redirect("/console/login");
  const [row] = await (await ready()).select().from(operators).where(eq(operators.id, id));
  if (!row || row.disabledAt) redirect("/console/login");
  if (role === "admin" && row.role !== "admin") redirect("/console/forbidden");
  return { id: row.id, email: row.email, name: row.name, role: row.role as OperatorRole };
}
