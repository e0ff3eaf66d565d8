import Link from "next/link";
import { Card, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { when } from "@/lib/operations/console/format";
import { operatorRow } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";
import { changePasswordAction } from "./actions";

export const metadata = { title: "Account · Console" };

/** The operator's own account: password change and the second factor. */
export default async function Account({ searchParams }: { searchParams: SearchParams }) {
  const operator = await requireOperator();
  const sp = await searchParams;
  const row = await operatorRow(await ready(), operator.id);
  return (
    <>
      <PageTitle sub={`${row.email} · ${row.role}`}>Account</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="Two-factor authentication">
        <p className="text-sm" data-testid="totp-status">
          {row.totpEnrolledAt ? `On since ${when(row.totpEnrolledAt)} (${row.recoveryCodes.length} recovery codes left).` : "Off."}{" "}
          {!row.totpEnrolledAt ? (
            <Link className="text-blue-700 underline" href="/console/enrol">
              Set up two-factor authentication
            </Link>
          ) : (
            "A lost device: ask an admin for a second-factor reset link."
          )}
        </p>
      </Card>
      <Card title="Change password">
        <form action={changePasswordAction} className="grid max-w-sm gap-2 text-sm" data-own>
          <input type="hidden" name="back" value="/console/account" />
          <label className="grid gap-1">
            Current password <input name="current" type="password" required autoComplete="current-password" className={input} />
          </label>
          <label className="grid gap-1">
            New password (12+) <input name="next" type="password" required minLength={12} autoComplete="new-password" className={input} />
          </label>
          <label className="grid gap-1">
            New password again <input name="repeat" type="password" required minLength={12} autoComplete="new-password" className={input} />
          </label>
          <button className={primary}>Change password</button>
        </form>
      </Card>
    </>
  );
}
