"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { recordAudit } from "@/lib/operators/audit";
import { reenableEndpoint } from "@/lib/webhooks/endpoint";
import { replayEvent, replayRange } from "@/lib/webhooks/replay";

export const replayEventAction = consoleAction("admin", z.object({ eventId: z.string().min(1) }), async ({ tx, input, operator, now }) => {
  await replayEvent(tx, input.eventId, now);
  await recordAudit(tx, operator, { action: "webhook.replay", targetType: "event", targetId: input.eventId }, now);
  return `Event ${input.eventId} queued for delivery again.`;
});

export const replayRangeAction = consoleAction(
  "admin",
  z.object({ partnerId: z.string().min(1), from: z.coerce.date(), to: z.coerce.date() }),
  async ({ tx, input, operator, now }) => {
    const n = await replayRange(tx, input.partnerId, input.from, input.to, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "webhook.replayRange",
        targetType: "partner",
        targetId: input.partnerId,
        after: { from: input.from.toISOString(), to: input.to.toISOString(), events: n },
      },
      now,
    );
    return `${n} event(s) queued for delivery again.`;
  },
);

export const reenableEndpointAction = consoleAction("admin", z.object({ partnerId: z.string().min(1) }), async ({ tx, input, operator, now }) => {
  const before = await reenableEndpoint(tx, input.partnerId, now);
  await recordAudit(tx, operator, { action: "webhook.endpoint.reenable", targetType: "partner", targetId: input.partnerId, before }, now);
  return "Webhook endpoint re-enabled. Events settled while it was disabled are not resent by themselves: replay their time range.";
});
