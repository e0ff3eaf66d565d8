"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireOperator } from "@/lib/operations/console/session";
import { rotateWebhookSecret } from "@/lib/partners/webhook-secret";
import { ready } from "@/lib/platform/ready";
import { runUnit } from "@/lib/platform/unit-of-work";

export interface SecretState {
  /** The new secret, in full: returned to this one form submission only, never put in a URL. */
  secret?: string;
  previousValidUntil?: string | null;
  error?: string;
}

/**
 * Issues a new webhook secret and hands it back to the page that asked (useActionState), so the
 * operator sees it once, in full, to give to the partner; it never travels in a redirect URL.
 */
export async function rotateSecretAction(_prev: SecretState, formData: FormData): Promise<SecretState> {
  const operator = await requireOperator("admin", { changes: true });
  const parsed = z.object({ partnerId: z.string().min(1).max(100) }).safeParse({ partnerId: formData.get("partnerId") });
  if (!parsed.success) return { error: "Unknown partner." };
  const { partnerId } = parsed.data;
  const rotated = await runUnit(
    async ({ tx, now, audit }) => {
      const result = await rotateWebhookSecret(tx, partnerId, now);
      audit.record({
        action: "partner.webhookSecret.rotate",
        targetType: "partner",
        targetId: partnerId,
        after: { previousValidUntil: result.previousValidUntil?.toISOString() ?? null },
      });
      return result;
    },
    { actor: { kind: "operator", operator }, context: { operatorId: operator.id }, db: ready },
  );
  if (!rotated.ok) return { error: rotated.error.code === "server.unexpected" ? "Something went wrong; nothing was changed." : rotated.error.message };
  revalidatePath(`/console/partners/${partnerId}`);
  return { secret: rotated.value.webhookSecret, previousValidUntil: rotated.value.previousValidUntil?.toISOString() ?? null };
}
