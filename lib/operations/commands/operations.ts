/**
 * Commands an admin runs on the service itself: webhook deliveries replayed, a disabled endpoint
 * re-enabled, operator accounts created, disabled or enabled, and reset links made for them.
 */
import { z } from "zod";
import { config } from "@/lib/platform/config";
import { createResetLink, setOperatorEnabled as setEnabled } from "@/lib/operations/operators/accounts";
import { createOperator as create } from "@/lib/operations/operators/records";
import { reenableEndpoint, replayEvent, replayRange } from "@/lib/partners";
import { command } from "./command";

export const replayWebhookEvent = command({
  name: "webhook.replay",
  role: "admin",
  input: z.object({ eventId: z.string().min(1) }),
  run: async ({ tx, now }, p) => {
    await replayEvent(tx, p.eventId, now);
    return { targetType: "event", targetId: p.eventId, notice: `Event ${p.eventId} queued for delivery again.` };
  },
});

export const replayWebhookRange = command({
  name: "webhook.replayRange",
  role: "admin",
  input: z.object({ partnerId: z.string().min(1), from: z.coerce.date(), to: z.coerce.date() }),
  run: async ({ tx, now }, p) => {
    const n = await replayRange(tx, p.partnerId, p.from, p.to, now);
    return {
      targetType: "partner",
      targetId: p.partnerId,
      after: { from: p.from.toISOString(), to: p.to.toISOString(), events: n },
      notice: `${n} event(s) queued for delivery again.`,
    };
  },
});

/** Events settled while the endpoint was disabled are not resent by themselves: the notice says to replay their range. */
export const reenableWebhookEndpoint = command({
  name: "webhook.endpoint.reenable",
  role: "admin",
  input: z.object({ partnerId: z.string().min(1) }),
  run: async ({ tx, now }, p) => {
    const before = await reenableEndpoint(tx, p.partnerId, now);
    return {
      targetType: "partner",
      targetId: p.partnerId,
      before,
      notice: "Webhook endpoint re-enabled. Events settled while it was disabled are not resent by themselves: replay their time range.",
    };
  },
});

export const createOperator = command({
  name: "operator.create",
  role: "admin",
  input: z.object({
    email: z.string().email(),
    name: z.string().trim().min(2).max(100),
    role: z.enum(["reviewer", "admin", "auditor"]),
    password: z.string().min(12).max(256),
  }),
  run: async ({ tx, now }, p) => {
    const created = await create(tx, { ...p, now });
    return {
      targetType: "operator",
      targetId: created.id,
      after: { email: created.email, role: created.role },
      notice: `Operator ${created.email} (${created.role}) created.`,
    };
  },
});

/** Another operator disabled (their sessions end at once) or enabled; nobody disables themselves. */
export const setOperatorEnabled = command({
  name: "operator.setEnabled",
  role: "admin",
  input: z.object({ operatorId: z.string().min(1), enabled: z.boolean() }),
  run: async ({ tx, operator, now }, p) => {
    const { before, after } = await setEnabled(tx, operator, p.operatorId, p.enabled, now);
    return {
      action: p.enabled ? "operator.enable" : "operator.disable",
      targetType: "operator",
      targetId: before.id,
      before: { email: before.email, disabled: !!before.disabledAt },
      after: { disabled: !p.enabled },
      notice: `Operator ${after.email} is ${after.disabledAt ? "disabled: their sessions have ended" : "enabled"}.`,
    };
  },
});

/**
 * A one-time link for another operator: a new password, or a lost second factor replaced. The link
 * is shown once to the admin who asked (never e-mailed nor stored in clear, nor audited).
 */
export const makeResetLink = command({
  name: "operator.reset",
  role: "admin",
  input: z.object({ operatorId: z.string().min(1), kind: z.enum(["password", "totp"]) }),
  run: async ({ tx, operator, now }, p) => {
    const { token, expiresAt, operator: row } = await createResetLink(tx, operator, p.operatorId, p.kind, now);
    return {
      action: `operator.reset.${p.kind}`,
      targetType: "operator",
      targetId: row.id,
      after: { email: row.email, expiresAt: expiresAt.toISOString() },
      notice: `Reset link made; it works once until ${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC. Give it to the operator in person.`,
      once: { link: `${config().publicBaseUrl}/console/reset/${token}` },
    };
  },
});
