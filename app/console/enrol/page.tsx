import Link from "next/link";
import { toDataURL } from "qrcode";
import { Card, Flash, param, primary, type SearchParams } from "@/components/console/ui";
import { operatorRow } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { pendingEnrolment, secondFactorRequired } from "@/lib/operations/operators/accounts";
import { ready } from "@/lib/platform/ready";
import { beginEnrolmentAction } from "./actions";
import { ConfirmEnrolmentForm } from "./enrol-form";

export const metadata = { title: "Two-factor authentication · Console" };
export const dynamic = "force-dynamic";

/**
 * Setting up the TOTP second factor: at first sign-in when it is required
 * (requireOperator sends the operator here), or from the Account page. The secret is shown as a
 * QR code and as its otpauth:// URI (for apps that paste it).
 */
export default async function Enrol({ searchParams }: { searchParams: SearchParams }) {
  const operator = await requireOperator("reviewer", { enrolling: true });
  const sp = await searchParams;
  const db = await ready();
  const row = await operatorRow(db, operator.id);
  const pending = await pendingEnrolment(db, row);
  const qr = pending ? await toDataURL(pending.uri, { margin: 1, width: 200 }) : null;
  return (
    <main className="mx-auto max-w-2xl p-4 sm:p-6">
      <h1 className="mb-1 text-2xl font-semibold">Two-factor authentication</h1>
      <p className="mb-4 text-sm text-slate-600">
        {secondFactorRequired(row) ? "Your account needs a second factor before you use the console. " : null}
        Use an authenticator app (RFC 6238 TOTP: 6 digits every 30 seconds). Signed in as {operator.email}.
      </p>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card>
        {row.totpEnrolledAt ? <p className="mb-2 text-sm">Two-factor authentication is on.</p> : null}
        {!row.totpEnrolledAt && !pending ? (
          <form action={beginEnrolmentAction}>
            <input type="hidden" name="back" value="/console/enrol" />
            <button className={primary}>Set up two-factor authentication</button>
          </form>
        ) : null}
        {pending && qr ? (
          <div className="mb-4 grid gap-2 text-sm">
            {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL made on the server: nothing for next/image to optimise */}
            <img src={qr} alt="QR code of the authenticator secret" width={200} height={200} />
            <label className="grid gap-1">
              Or enter this key in the app
              <input readOnly value={pending.secret} aria-label="Secret key" className="rounded border border-slate-300 px-2 py-1 font-mono" />
            </label>
            <label className="grid gap-1">
              otpauth URI
              <input readOnly value={pending.uri} aria-label="otpauth URI" className="rounded border border-slate-300 px-2 py-1 font-mono text-xs" />
            </label>
          </div>
        ) : null}
        <ConfirmEnrolmentForm pending={!!pending} />
        {row.totpEnrolledAt ? (
          <Link className="text-blue-700 underline" href="/console">
            Back to the console
          </Link>
        ) : null}
      </Card>
    </main>
  );
}
