import { Card, Flash, input, param, primary, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { resetLinkOf } from "@/lib/operations/operators/accounts";
import { ready } from "@/lib/platform/ready";
import { redeemResetLinkAction } from "../actions";

export const metadata = { title: "Reset · Console" };
export const dynamic = "force-dynamic";

/** The page of an admin's one-time link: a new password, or the lost second factor removed. */
export default async function Reset({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: SearchParams }) {
  const { token } = await params;
  const sp = await searchParams;
  const found = await resetLinkOf(await ready(), token, clock.now());
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm">
        <Flash error={param(sp, "error")} />
        <Card title={found?.link.kind === "totp" ? "Replace your second factor" : "Set a new password"}>
          {!found ? (
            <p className="text-sm">This link is used or expired: ask an admin for a new one.</p>
          ) : (
            <form action={redeemResetLinkAction} className="grid gap-2 text-sm">
              <input type="hidden" name="token" value={token} />
              <p>{found.email}</p>
              {found.link.kind === "totp" ? (
                <p>Your lost authenticator is removed once you confirm your password; you set up a new one when you next sign in.</p>
              ) : null}
              <label className="grid gap-1">
                {found.link.kind === "totp" ? "Your password" : "New password (12+)"}
                <input name="password" type="password" required minLength={found.link.kind === "totp" ? 1 : 12} className={input} />
              </label>
              <button className={primary}>{found.link.kind === "totp" ? "Remove the lost factor" : "Set password"}</button>
            </form>
          )}
        </Card>
      </div>
    </main>
  );
}
