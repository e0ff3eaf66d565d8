import Link from "next/link";
import type { ReactNode } from "react";
import { customerName, money, when } from "@/lib/operations/console/format";
import type { HoldInfo } from "@/lib/operations/console/holds";
import { Badge, Card, CustomerLabel } from "./ui";

export interface QueueTransfer {
  t: {
    id: string;
    state: string;
    priorState: string | null;
    originAmount: string;
    originCurrency: string;
    destinationAmount: string;
    destinationCurrency: string;
    corridor: string;
    payoutMethod: string;
    subscriptionId: string;
    customerId: string;
    createdAt: Date;
  };
  customerProfile: Record<string, unknown> | null;
  customerStatus: string;
  kycStatus: string;
  first: string;
  last: string;
  benState: string;
  masked: string | null;
  methodType: string | null;
  reasons: string[];
  history: { seq: number; state: string; reasonCode: string; transitionedAt: Date }[];
  /** The customer's compliance case: the queue is a view of cases. */
  complianceCase?: { id: string; state: string };
}

/** What an operator needs to decide on a transfer; never the full destination identifier. */
export function TransferCard({ item, hold, children }: { item: QueueTransfer; hold?: HoldInfo; children: ReactNode }) {
  const t = item.t;
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          <Link className="text-blue-700 underline" href={`/console/transfers/${t.id}`}>
            <Badge>{t.id}</Badge>
          </Link>{" "}
          {money(t.originAmount, t.originCurrency)} → {money(t.destinationAmount, t.destinationCurrency)}
        </span>
      }
    >
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-slate-500">Customer: </dt>
          <dd className="inline">
            <CustomerLabel name={customerName(item.customerProfile)} id={t.customerId} /> ({item.customerStatus}, KYC {item.kycStatus})
          </dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Beneficiary: </dt>
          <dd className="inline">
            {item.first} {item.last} ({item.benState})
          </dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Corridor: </dt>
          <dd className="inline">
            {t.corridor} · {t.payoutMethod}
          </dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Destination: </dt>
          <dd className="inline">
            {item.methodType ?? "—"} {item.masked ?? ""}
          </dd>
        </div>
        {item.complianceCase && (
          <div data-testid="transfer-case">
            <dt className="inline text-slate-500">Case: </dt>
            <dd className="inline">
              <Link className="font-mono text-blue-700 underline" href={`/console/cases/${item.complianceCase.id}`}>
                {item.complianceCase.id}
              </Link>{" "}
              ({item.complianceCase.state})
            </dd>
          </div>
        )}
        {t.priorState && (
          <div>
            <dt className="inline text-slate-500">State before hold: </dt>
            <dd className="inline">{t.priorState}</dd>
          </div>
        )}
        {hold && (
          <div className="sm:col-span-2" data-testid="hold-info">
            <dt className="inline text-slate-500">Held: </dt>
            <dd className="inline">
              by {hold.by ?? "a compliance event outside the console"} on {when(hold.at)}
              {hold.reason ? <>: {hold.reason}</> : null}
            </dd>
          </div>
        )}
        {/* The review rule's reasons explain the review queue; a hold has its own who and why. */}
        {!hold && item.reasons.length > 0 && (
          <div>
            <dt className="inline text-slate-500">Why held: </dt>
            <dd className="inline">{item.reasons.join(", ")}</dd>
          </div>
        )}
      </dl>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-slate-700">State history ({item.history.length})</summary>
        <ol className="mt-1 list-decimal pl-6">
          {item.history.map((h) => (
            <li key={h.seq}>
              {h.state} · {h.reasonCode} · {when(h.transitionedAt)}
            </li>
          ))}
        </ol>
      </details>
      <div className="mt-3">{children}</div>
    </Card>
  );
}
