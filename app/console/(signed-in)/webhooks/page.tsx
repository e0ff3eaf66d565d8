import Link from "next/link";
import { Badge, Card, CustomerLabel, danger, Empty, Flash, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { customerName, when } from "@/lib/operations/console/format";
import { pageParam } from "@/lib/operations/console/page-param";
import { listPartners, PAGE_SIZE } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";
import { webhookEndpointState } from "@/lib/partners/webhooks/endpoint";
import { deliveryLog } from "@/lib/partners/webhooks/replay";
import { reenableEndpointAction, replayEventAction, replayRangeAction } from "./actions";

export const metadata = { title: "Webhooks · Console" };

export default async function Webhooks({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const db = await ready();
  const partners = await listPartners(db);
  const partnerId = param(sp, "partner") ?? partners[0]?.id;
  const page = pageParam(param(sp, "page"));
  const events = partnerId ? await deliveryLog(db, partnerId, PAGE_SIZE + 1, (page - 1) * PAGE_SIZE) : [];
  const back = `/console/webhooks`;
  const partner = partners.find((p) => p.id === partnerId);
  // Replay is offered only where a delivery can happen: a URL and a secret, not disabled (410).
  const endpoint = partner ? webhookEndpointState(partner) : null;
  return (
    <>
      <PageTitle sub="Every event and each delivery attempt: time, status code, latency.">Webhook deliveries</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <form className="mb-4 flex gap-2" method="get">
        <select name="partner" defaultValue={partnerId} className={input} aria-label="Partner">
          {partners.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <button className={primary}>Show</button>
      </form>
      {partner?.webhookDisabledAt && (
        <div role="alert" className="mb-4 flex flex-wrap items-center gap-2 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <span>
            Endpoint disabled since {when(partner.webhookDisabledAt)}: {partner.webhookDisabledReason} Nothing is sent to it until re-enabled.
          </span>
          <form action={reenableEndpointAction} className="ml-auto">
            <input type="hidden" name="partnerId" value={partner.id} />
            <input type="hidden" name="back" value={back} />
            <button className={danger}>Re-enable endpoint</button>
          </form>
        </div>
      )}
      {partner && endpoint === "noUrl" && (
        <p role="status" className="mb-4 rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="no-webhook-url">
          {partner.name} has {partner.webhookUrl ? "no webhook signing secret" : "no webhook URL"}, so its events are not delivered; they are kept.{" "}
          <Link className="font-medium underline" href={`/console/partners/${partner.id}`}>
            {partner.webhookUrl ? "Issue a secret" : "Set a webhook URL"} in {partner.name}’s settings
          </Link>
          , then replay the events it missed.
        </p>
      )}
      {partnerId && endpoint === "ready" && (
        <Card title="Replay a time range">
          <form action={replayRangeAction} className="flex flex-wrap items-center gap-2 text-sm">
            <input type="hidden" name="partnerId" value={partnerId} />
            <input type="hidden" name="back" value={back} />
            <label>
              From <input name="from" type="datetime-local" required className={input} />
            </label>
            <label>
              To <input name="to" type="datetime-local" required className={input} />
            </label>
            <button className={primary}>Replay range</button>
          </form>
        </Card>
      )}
      {events.length === 0 ? <Empty>No events for this partner yet.</Empty> : null}
      <ul className="space-y-2">
        {events.slice(0, PAGE_SIZE).map((e) => (
          <li key={e.id} className="rounded border border-slate-200 bg-white p-3 text-sm" data-testid="webhook-event">
            <div className="flex flex-wrap items-center gap-2">
              <Badge>{e.eventType}</Badge> #{e.sequence} ·{" "}
              {e.customer.id ? <CustomerLabel name={customerName(e.customer.profile)} id={e.customer.id} /> : e.subscriptionId} · {when(e.occurredAt)}
              {/* Without an endpoint every event is "undeliverable": the notice above says why once. */}
              {endpoint !== "noUrl" && <Badge>{e.deliveryState}</Badge>}
              {endpoint === "ready" && e.deliveryState !== "pending" && (
                <form action={replayEventAction} className="ml-auto">
                  <input type="hidden" name="eventId" value={e.id} />
                  <input type="hidden" name="back" value={back} />
                  <button className={primary}>Replay</button>
                </form>
              )}
            </div>
            {e.attempts.length > 0 && (
              <table className="mt-2 text-left text-slate-700" data-testid="webhook-attempts">
                <thead className="text-xs text-slate-500">
                  <tr>
                    <th className="pr-4 font-normal">Attempted</th>
                    <th className="pr-4 font-normal">Status</th>
                    <th className="pr-4 font-normal">Latency</th>
                    <th className="font-normal">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {e.attempts.map((a) => (
                    <tr key={a.id}>
                      <td className="pr-4">{when(a.attemptedAt)}</td>
                      <td className="pr-4">{a.statusCode ?? "no response"}</td>
                      <td className="pr-4">{a.latencyMs} ms</td>
                      <td>{a.error ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ul>
      <Pager path="/console/webhooks" page={page} hasMore={events.length > PAGE_SIZE} params={partnerId ? { partner: partnerId } : {}} />
    </>
  );
}
