"use server";

import { redirect } from "next/navigation";
import { redeemResetLink } from "@/lib/operations/operators/accounts";
import { ready } from "@/lib/platform/ready";
import { runUnit } from "@/lib/platform/unit-of-work";

/**
 * Uses an admin's one-time reset link. No session: the token is the
 * credential (and, for a second-factor reset, the operator's password too); then to sign-in.
 */
export async function redeemResetLinkAction(formData: FormData): Promise<void> {
  const token = String(formData.get("token") ?? "");
  const password = String(formData.get("password") ?? "");
  const done = await runUnit(({ tx, now }) => redeemResetLink(tx, token, password, now), { db: ready, context: { route: "console/reset" } });
  if (!done.ok) redirect(`/console/reset/${encodeURIComponent(token)}?error=${encodeURIComponent(done.error.message)}`);
  redirect(`/console/login?reset=${done.value.kind}`);
}
