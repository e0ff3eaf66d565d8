import { Badge, Card, danger, Empty, Flash, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { pageParam } from "@/lib/console/page-param";
import { listPartners, PAGE_SIZE } from "@/lib/console/queries";
import { requireOperator } from "@/lib/console/session";
import { ready } from "@/lib/platform/ready";
import { deliveryLog } from "@/lib/webhooks/replay";
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
  return (
    <>
      <PageTitle sub="Every event and each delivery attempt: time, status code, latency.">Webhook deliveries</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <form className="mb-4 flex gap-2">
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
            Endpoint disabled since {partner.webhookDisabledAt.toISOString()}: {partner.webhookDisabledReason} Nothing is sent to it until re-enabled.
          </span>
          <form action={reenableEndpointAction} className="ml-auto">
            <input type="hidden" name="partnerId" value={partner.id} />
            <input type="hidden" name="back" value={back} />
            <button className={danger}>Re-enable endpoint</button>
          </form>
        </div>
      )}
      {partnerId && (
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
          <li key={e.id} className="rounded border border-slate-200 bg-white p-3 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <Badge>{e.eventType}</Badge> #{e.sequence} · {e.subscriptionId} · {e.occurredAt.toISOString()} · <Badge>{e.deliveryState}</Badge>
              <form action={replayEventAction} className="ml-auto">
                <input type="hidden" name="eventId" value={e.id} />
                <input type="hidden" name="back" value={back} />
                <button className={primary}>Replay</button>
              </form>
            </div>
            {e.attempts.length > 0 && (
              <ol className="mt-1 list-decimal pl-6 text-slate-700">
                {e.attempts.map((a) => (
                  <li key={a.id}>
                    {a.attemptedAt.toISOString()} · {a.statusCode ?? "no response"} · {a.latencyMs} ms{a.error ? ` · ${a.error}` : ""}
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ul>
      <Pager path="/console/webhooks" page={page} hasMore={events.length > PAGE_SIZE} params={partnerId ? { partner: partnerId } : {}} />
    </>
  );
}
