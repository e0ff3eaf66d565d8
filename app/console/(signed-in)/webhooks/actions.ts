"use server";

import { z } from "zod";
import { reenableWebhookEndpoint, replayWebhookEvent, replayWebhookRange } from "@/lib/operations/commands/operations";
import { consoleCommand } from "@/lib/operations/console/action";

export const replayEventAction = consoleCommand("admin", z.object({ eventId: z.string().min(1) }), (input) => ({ command: replayWebhookEvent, input }));

export const replayRangeAction = consoleCommand("admin", z.object({ partnerId: z.string().min(1), from: z.coerce.date(), to: z.coerce.date() }), (input) => ({
  command: replayWebhookRange,
  input,
}));

export const reenableEndpointAction = consoleCommand("admin", z.object({ partnerId: z.string().min(1) }), (input) => ({
  command: reenableWebhookEndpoint,
  input,
}));
