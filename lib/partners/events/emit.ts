import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { events } from "@/db/schema";
import { effectsOf } from "@/lib/platform/unit-of-work";
import type { EmitInput } from "./types";

export { EVENT_TYPES, type EmitInput, type EventType } from "./types";

/**
 * Records an event now, outside a unit of work (a test's own transaction, a script), numbered in
 * its subscription's sequence, with its delivery job; answers its sequence number. In a unit of
 * work, domain code emits through the unit's effects (effectsOf(tx).events.emit): written at commit.
 */
export async function emitEvent(tx: Tx, input: EmitInput): Promise<{ eventId: string; sequence: number }> {
  const { eventId } = await effectsOf(tx).events.emit(input);
  const [row] = await tx.select({ sequence: events.sequence }).from(events).where(eq(events.id, eventId));
  if (!row) throw new Error("emitEvent: inside a unit of work the event is written at commit (use effectsOf(tx).events.emit)");
  return { eventId, sequence: Number(row.sequence) };
}
