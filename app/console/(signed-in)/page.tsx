import Link from "next/link";
import { Card, PageTitle } from "@/components/console/ui";
import { queueCounts } from "@/lib/console/queries";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Overview · Console" };

export default async function Overview() {
  const counts = await queueCounts(await ready());
  const tiles = [
    ["/console/review", "Transfers in review", counts.review],
    ["/console/holds", "Compliance holds", counts.holds],
    ["/console/beneficiaries", "Beneficiaries to decide", counts.screening],
  ] as const;
  return (
    <>
      <PageTitle sub="What needs an operator now.">Overview</PageTitle>
      <div className="grid gap-4 sm:grid-cols-3">
        {tiles.map(([href, label, n]) => (
          <Link key={href} href={href} className="rounded-lg focus:outline-none focus:ring-2 focus:ring-blue-500">
            <Card>
              <p className="text-sm text-slate-600">{label}</p>
              <p className="mt-1 text-3xl font-semibold" data-testid={`count-${href.split("/").pop()}`}>
                {n}
              </p>
            </Card>
          </Link>
        ))}
      </div>
    </>
  );
}
