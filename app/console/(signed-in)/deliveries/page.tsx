import { Empty, PageTitle, PartnerLabel } from "@/components/console/ui";
import { when } from "@/lib/operations/console/format";
import { partnerNames } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { failedOtpDeliveries, retryingOtpDeliveries } from "@/lib/operations/notifications/failed-deliveries";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Failed deliveries · Console" };

export default async function FailedDeliveries() {
  await requireOperator("admin");
  const db = await ready();
  const [retrying, rows, partnerName] = [await retryingOtpDeliveries(db), await failedOtpDeliveries(db), await partnerNames(db)];
  return (
    <>
      <PageTitle sub="One-time codes the email or SMS provider has not accepted: still being retried, then given up after every retry. The customer has to ask for a new code.">
        Failed code deliveries
      </PageTitle>
      {/* A failing provider shows here from its first failed attempt, not only after the last. */}
      <h2 className="mt-4 mb-2 text-base font-semibold">Being retried</h2>
      {retrying.length === 0 ? (
        <Empty>No deliveries being retried.</Empty>
      ) : (
        <table data-testid="retrying-deliveries" className="mb-6 w-full border-collapse rounded-lg bg-white text-sm shadow-sm">
          <thead className="text-left text-slate-600">
            <tr>
              {["Created", "Next attempt", "Channel", "Recipient", "Purpose", "Partner", "Attempts", "Last error"].map((h) => (
                <th key={h} scope="col" className="border-b border-slate-200 px-3 py-2">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {retrying.map((r) => (
              <tr key={r.id} className="border-b border-slate-100">
                <td className="px-3 py-2">{when(r.createdAt)}</td>
                <td className="px-3 py-2">{r.nextAttemptAt ? when(r.nextAttemptAt) : "now (running)"}</td>
                <td className="px-3 py-2">
                  {r.channel} ({r.provider})
                </td>
                <td className="px-3 py-2 font-mono">{r.recipient}</td>
                <td className="px-3 py-2">{r.purpose}</td>
                <td className="px-3 py-2">
                  <PartnerLabel name={partnerName.get(r.partnerId)} id={r.partnerId} />
                </td>
                <td className="px-3 py-2">{r.attempts}</td>
                <td className="px-3 py-2 text-red-800">{r.lastError}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2 className="mt-4 mb-2 text-base font-semibold">Given up</h2>
      {rows.length === 0 ? (
        <Empty>No failed deliveries.</Empty>
      ) : (
        <table className="w-full border-collapse rounded-lg bg-white text-sm shadow-sm">
          <thead className="text-left text-slate-600">
            <tr>
              {["Created", "Failed", "Channel", "Recipient", "Purpose", "Partner", "Attempts", "Last error"].map((h) => (
                <th key={h} scope="col" className="border-b border-slate-200 px-3 py-2">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-b border-slate-100">
                <td className="px-3 py-2">{when(r.createdAt)}</td>
                <td className="px-3 py-2">{when(r.failedAt)}</td>
                <td className="px-3 py-2">
                  {r.channel} ({r.provider})
                </td>
                <td className="px-3 py-2 font-mono">{r.recipient}</td>
                <td className="px-3 py-2">{r.purpose}</td>
                <td className="px-3 py-2">
                  <PartnerLabel name={partnerName.get(r.partnerId)} id={r.partnerId} />
                </td>
                <td className="px-3 py-2">{r.attempts}</td>
                <td className="px-3 py-2 text-red-800">{r.lastError}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
