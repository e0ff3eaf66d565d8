import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, Card, danger, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/clock";
import { when } from "@/lib/console/format";
import { requireOperator } from "@/lib/console/session";
import { DomainError } from "@/lib/errors";
import { partnerDetail } from "@/lib/partners/admin";
import { ready } from "@/lib/platform/ready";
import { issueKeyAction, revokeKeyAction, updatePartnerAction } from "../actions";
import { SecretPanel } from "./secret-panel";

export const metadata = { title: "Partner · Console" };

export default async function PartnerPage({ params, searchParams }: { params: Promise<{ partnerId: string }>; searchParams: SearchParams }) {
  await requireOperator("admin");
  const { partnerId } = await params;
  const sp = await searchParams;
  const detail = await partnerDetail(await ready(), partnerId).catch((e) => (e instanceof DomainError ? null : Promise.reject(e)));
  if (!detail) notFound();
  const { partner, keys } = detail;
  const back = `/console/partners/${partner.id}`;
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
        <form action={issueKeyAction}>
          <input type="hidden" name="partnerId" value={partner.id} />
          <input type="hidden" name="back" value={back} />
          <button className={primary}>Issue a new key</button>
        </form>
      </Card>
      <Card title="Integration settings">
        <form action={updatePartnerAction} className="grid gap-3 text-sm">
          <input type="hidden" name="partnerId" value={partner.id} />
          <input type="hidden" name="back" value={back} />
          <label>
            Pricing mode{" "}
            <select name="pricingMode" defaultValue={partner.pricingMode} className={input}>
              <option>SERVICE_PRICED</option>
              <option>PARTNER_SIGNED</option>
            </select>
          </label>
          <label className="grid gap-1">
            Webhook URL (https in production)
            <input name="webhookUrl" defaultValue={partner.webhookUrl ?? ""} className={input} />
          </label>
          <label className="grid gap-1">
            Webview origins (space or comma separated; the first receives postMessage)
            <input name="returnOrigins" defaultValue={partner.returnOrigins.join(" ")} className={input} />
          </label>
          <label className="grid gap-1">
            JWKS URL (fetched now, validated, stored)
            <input name="jwksUrl" className={input} placeholder="https://partner.example/.well-known/jwks.json" />
          </label>
          <label className="grid gap-1">
            JWKS (inline JSON; leave both empty to keep {partner.jwks.keys.length} key(s): {partner.jwks.keys.map((k) => String(k.kid)).join(", ") || "none"})
            <textarea name="jwksJson" rows={4} className={`${input} font-mono`} />
          </label>
          <div>
            <button className={primary}>Save settings</button>
          </div>
        </form>
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
    </>
  );
}
