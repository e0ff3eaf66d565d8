import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { proposals } from "@/db/schema";

/**
 * The proposal of `action` on `subject` still waiting, if any: while its approval runs the
 * command, locked by that approval (a command reads who proposed it here). Apart from ./queries.ts,
 * which reads the command registry, so that a command may import it.
 */
export async function openProposalFor(db: Executor, action: string, subject: { type: string; id: string }) {
  const [row] = await db
    .select()
    .from(proposals)
    .where(and(eq(proposals.action, action), eq(proposals.subjectType, subject.type), eq(proposals.subjectId, subject.id), eq(proposals.state, "PROPOSED")));
  return row;
}
