import Link from "next/link";
import { Badge, CustomerLabel, Empty, input, PageTitle, param, PartnerLabel, primary, type SearchParams } from "@/components/console/ui";
import { customerName } from "@/lib/operations/console/format";
import { partnerNames, searchCustomers } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Customers · Console" };

export default async function Customers({ searchParams }: { searchParams: SearchParams }) {
  // Analysts (reviewers) find the customer a case is about; what changes a customer is admin-only.
  await requireOperator("reviewer");
  const q = param(await searchParams, "q") ?? "";
  const db = await ready();
  const [rows, partnerName] = await Promise.all([q ? searchCustomers(db, q) : [], partnerNames(db)]);
  return (
    <>
      <PageTitle sub="Search by subscriptionId, customer id, email or phone.">Customers</PageTitle>
      <form className="mb-4 flex gap-2" role="search" method="get">
        <input name="q" defaultValue={q} aria-label="Search customers" className={`${input} w-80`} placeholder="sub_… or ada@example.com" />
        <button className={primary}>Search</button>
      </form>
      {q && rows.length === 0 && <Empty>No customer matches “{q}”.</Empty>}
      {rows.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse bg-white text-sm">
            <thead>
              <tr className="border-b text-left text-slate-500">
                <th className="p-2">Customer</th>
                <th className="p-2">Subscription</th>
                <th className="p-2">Partner</th>
                <th className="p-2">Status</th>
                <th className="p-2">KYC</th>
                <th className="p-2">Relationship</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ s, c }) => (
                <tr key={s.id} className="border-b">
                  <td className="p-2">
                    <CustomerLabel name={customerName(c.profile)} id={c.id} href={`/console/customers/${s.id}`} />
                  </td>
                  <td className="p-2">
                    <Link className="text-blue-700 underline" href={`/console/customers/${s.id}`}>
                      {s.id}
                    </Link>
                  </td>
                  <td className="p-2">
                    <PartnerLabel name={partnerName.get(s.partnerId)} id={s.partnerId} />
                  </td>
                  <td className="p-2">
                    <Badge>{c.status}</Badge>
                  </td>
                  <td className="p-2">{c.kycStatus}</td>
                  <td className="p-2">{s.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
