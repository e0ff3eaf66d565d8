"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { clock } from "@/lib/clock";
import { requireOperator } from "@/lib/console/session";
import { DomainError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { recordAudit } from "@/lib/operators/audit";
import { rotateWebhookSecret } from "@/lib/partners/webhook-secret";
import { ready } from "@/lib/platform/ready";

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
  const operator = await requireOperator("admin");
  const parsed = z.object({ partnerId: z.string().min(1).max(100) }).safeParse({ partnerId: formData.get("partnerId") });
  if (!parsed.success) return { error: "Unknown partner." };
  const { partnerId } = parsed.data;
  try {
    const db = await ready();
    const rotated = await db.transaction(async (tx) => {
      const now = clock.now();
      const result = await rotateWebhookSecret(tx, partnerId, now);
      await recordAudit(
        tx,
        operator,
        {
          action: "partner.webhookSecret.rotate",
          targetType: "partner",
          targetId: partnerId,
          after: { previousValidUntil: result.previousValidUntil?.toISOString() ?? null },
        },
        now,
      );
      return result;
    });
    revalidatePath(`/console/partners/${partnerId}`);
    return { secret: rotated.webhookSecret, previousValidUntil: rotated.previousValidUntil?.toISOString() ?? null };
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message };
    logger().error({ err, operatorId: operator.id }, "webhook secret rotation failed");
    return { error: "Something went wrong; nothing was changed." };
  }
}
