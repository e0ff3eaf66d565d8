import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/console/sign-out";
import { requireOperator } from "@/lib/console/session";

export const dynamic = "force-dynamic";

const QUEUES = [
  ["/console", "Overview"],
  ["/console/cases", "Cases"],
  ["/console/review", "Review"],
  ["/console/holds", "Holds"],
  ["/console/beneficiaries", "Screening"],
  ["/console/kyc-review", "KYC review"],
  ["/console/bank-credits", "Bank credits"],
  ["/console/customers", "Customers"],
] as const;
const ADMIN = [
  ["/console/partners", "Partners"],
  ["/console/webhooks", "Webhooks"],
  ["/console/deliveries", "Failed deliveries"],
  ["/console/payout-files", "Payout files"],
  ["/console/ledger", "Ledger"],
  ["/console/audit", "Audit log"],
  ["/console/operators", "Operators"],
] as const;

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const operator = await requireOperator();
  const links = operator.role === "admin" ? [...QUEUES, ...ADMIN] : QUEUES;
  return (
    <div className="min-h-screen">
      {/* One line from 1280 px up (issue 14): no wrapping, the operator's address truncates first. */}
      <header className="bg-slate-900 text-white" data-testid="console-header">
        <div className="flex items-center gap-x-2 whitespace-nowrap px-4 py-2">
          <span className="font-semibold">Remit Console</span>
          <nav aria-label="Console" className="flex text-[13px]">
            {links.map(([href, label]) => (
              <Link key={href} href={href} className="rounded px-1 py-1.5 text-slate-200 hover:bg-slate-700 focus:outline-none focus:ring-2 focus:ring-white">
                {label}
              </Link>
            ))}
          </nav>
          {/* The operator's own account (password, second factor): behind their name, the header has no room for another link. */}
          <Link
            href="/console/account"
            className="ml-auto min-w-0 truncate text-sm text-slate-300 hover:underline"
            data-testid="operator"
            title={`${operator.email} · ${operator.role}: your account`}
          >
            {operator.email} · {operator.role}
          </Link>
          <SignOutButton />
        </div>
      </header>
      <main className="mx-auto max-w-6xl p-4 sm:p-6">{children}</main>
    </div>
  );
}
