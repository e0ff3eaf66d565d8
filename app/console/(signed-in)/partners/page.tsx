import Link from "next/link";
import { Card, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { listPartners } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";
import { createPartnerAction } from "./actions";

export const metadata = { title: "Partners · Console" };

export default async function Partners({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const partners = await listPartners(await ready());
  return (
    <>
      <PageTitle
        sub={
          <>
            Partners integrating the APIs. Transaction monitoring (each partner&apos;s mode and parameters, rule sets):{" "}
            <Link className="text-blue-700 underline" href="/console/monitoring">
              Monitoring
            </Link>
            .
          </>
        }
      >
        Partners
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="New partner">
        <form action={createPartnerAction} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value="/console/partners" />
          <input name="name" required minLength={2} className={input} placeholder="Partner name" aria-label="Partner name" />
          <select name="pricingMode" className={input} aria-label="Pricing mode">
            <option>SERVICE_PRICED</option>
            <option>PARTNER_SIGNED</option>
          </select>
          <button className={primary}>Create</button>
        </form>
      </Card>
      <ul className="space-y-2">
        {partners.map((p) => (
          <li key={p.id} className="rounded border border-slate-200 bg-white p-3">
            <Link className="font-medium text-blue-700 underline" href={`/console/partners/${p.id}`}>
              {p.name}
            </Link>
            <span className="ml-2 text-sm text-slate-600">
              {p.id} · {p.pricingMode} · webhook {p.webhookUrl ?? "none"}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
