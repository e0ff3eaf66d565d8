import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, Card, danger, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { DomainError } from "@/lib/platform/errors";
import { partnerDetail } from "@/lib/partners/admin";
import { ready } from "@/lib/platform/ready";
import { LIMIT_WINDOWS, VERIFICATION_TIERS } from "@/lib/payments/limits/tiers";
import { partnerTierLimits } from "@/lib/payments/limits/partner-limits";
import { refreshVersions } from "@/lib/payments/corridors/versions";
import { revokeKeyAction, setPartnerLimitsAction, updateProviderContactAction } from "../actions";
import { IssueKeyForm, SettingsForm } from "./partner-forms";
import { SecretPanel } from "./secret-panel";

export const metadata = { title: "Partner · Console" };

export default async function PartnerPage({ params, searchParams }: { params: Promise<{ partnerId: string }>; searchParams: SearchParams }) {
  await requireOperator("admin");
  const { partnerId } = await params;
  const sp = await searchParams;
  const db = await ready();
  // Without limits of its own, the partner's customers have the configuration version's in force.
  await refreshVersions(db);
  const detail = await partnerDetail(db, partnerId).catch((e) => (e instanceof DomainError ? null : Promise.reject(e)));
  if (!detail) notFound();
  const { partner, keys } = detail;
  const back = `/console/partners/${partner.id}`;
  const contact = partner.providerContact;
  return (
    <>
      <PageTitle sub={`${partner.id} · created ${when(partner.createdAt)}`}>{partner.name}</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="Subscription keys">
        <ul className="mb-3 space-y-1 text-sm">
          {keys.map((k) => (
            <li key={k.id} className="flex items-center gap-2">
              <Badge>{k.keyPrefix}…</Badge> {k.id} · {k.revokedAt ? `revoked ${when(k.revokedAt)}` : "active"}
              {!k.revokedAt && (
                <form action={revokeKeyAction}>
                  <input type="hidden" name="partnerId" value={partner.id} />
                  <input type="hidden" name="keyId" value={k.id} />
                  <input type="hidden" name="back" value={back} />
                  <button className={danger}>Revoke</button>
                </form>
              )}
            </li>
          ))}
        </ul>
        <IssueKeyForm partnerId={partner.id} back={back} />
      </Card>
      <Card title="Integration settings">
        <SettingsForm
          partnerId={partner.id}
          back={back}
          values={{
            pricingMode: partner.pricingMode,
            webhookUrl: partner.webhookUrl ?? "",
            returnOrigins: partner.returnOrigins.join(" "),
            jwksSummary: `${partner.jwks.keys.length} key(s): ${partner.jwks.keys.map((k) => String(k.kid)).join(", ") || "none"}`,
          }}
        />
        <SecretPanel
          partnerId={partner.id}
          hasSecret={!!partner.webhookSecret}
          previousValidUntil={
            partner.webhookPreviousSecretExpiresAt && partner.webhookPreviousSecretExpiresAt > clock.now() ? when(partner.webhookPreviousSecretExpiresAt) : null
          }
        />
        {partner.webhookDisabledAt && (
          <p role="alert" className="mt-3 rounded border border-red-200 bg-red-50 p-2 text-sm text-red-900">
            Webhook endpoint disabled since {when(partner.webhookDisabledAt)}: {partner.webhookDisabledReason} Re-enable it from the delivery log.
          </p>
        )}
        <p className="mt-3 text-sm">
          <Link className="text-blue-700 underline" href={`/console/webhooks?partner=${partner.id}`}>
            Webhook delivery log →
          </Link>
        </p>
      </Card>
      <Card title="Provider contact (disclosures and receipts)">
        <form action={updateProviderContactAction} className="grid gap-2 sm:grid-cols-2">
          <input type="hidden" name="partnerId" value={partner.id} />
          <input type="hidden" name="back" value={back} />
          {(
            [
              ["name", "Name", contact?.name],
              ["phone", "Phone", contact?.phone],
              ["website", "Website", contact?.website],
              ["regulator", "Regulator", contact?.regulator],
            ] as const
          ).map(([name, label, value]) => (
            <label key={name} className="text-sm">
              {label}
              <input name={name} required defaultValue={value ?? ""} className={`${input} block w-full`} />
            </label>
          ))}
          <div>
            <button className={primary}>Save contact</button>
          </div>
        </form>
      </Card>
      <Card title="Limits by verification tier">
        <p className="mb-2 text-sm text-slate-600">
          Rolling windows (1, 30, 180 days) a customer may send within, counted at acceptance in the limit currency. Tier 1: KYC completed; tier 2: source of
          funds approved.{partner.tierLimits ? "" : " These are the configuration's (Configuration page), in force until the partner has its own."}
        </p>
        <form action={setPartnerLimitsAction} className="grid gap-3 text-sm" data-testid="partner-limits">
          <input type="hidden" name="partnerId" value={partner.id} />
          <input type="hidden" name="back" value={back} />
          <label>
            Limit currency <input name="currency" defaultValue={partner.limitCurrency} maxLength={3} className={`${input} w-20`} />
          </label>
          <table className="w-fit">
            <thead>
              <tr>
                <th className="pr-3 text-left">Tier</th>
                {LIMIT_WINDOWS.map((w) => (
                  <th key={w} className="pr-3 text-left">
                    {w}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {VERIFICATION_TIERS.map((t) => (
                <tr key={t}>
                  <td className="pr-3">{t}</td>
                  {LIMIT_WINDOWS.map((w) => (
                    <td key={w} className="pr-3">
                      <input
                        name={`tier${t}_${w}`}
                        aria-label={`Tier ${t} ${w}`}
                        defaultValue={partnerTierLimits(partner, clock.now())[`${t}`][w]}
                        inputMode="decimal"
                        className={`${input} w-28`}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <label className="grid gap-1">
            Reason (kept in the audit log; a second admin approves the change)
            <input name="reason" required minLength={3} maxLength={500} className={input} />
          </label>
          <button className={`${primary} w-fit`}>Save limits</button>
        </form>
      </Card>
    </>
  );
}
