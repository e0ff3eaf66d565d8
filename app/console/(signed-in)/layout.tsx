import Link from "next/link";
import type { ReactNode } from "react";
import { ConsoleNav } from "@/components/console/nav";
import { SignOutButton } from "@/components/console/sign-out";
import { clock } from "@/lib/platform/clock";
import { navigationFor } from "@/lib/operations/console/navigation";
import { requireOperator } from "@/lib/operations/console/session";
import { approvableProposalCount } from "@/lib/operations/dual-control/queries";
import { ready } from "@/lib/platform/ready";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const operator = await requireOperator();
  const approvals = await approvableProposalCount(await ready(), operator, clock.now());
  return (
    <div className="min-h-screen">
      {/* One line from 1280 px up: no wrapping, the operator's address truncates first. */}
      <header className="bg-slate-900 text-white" data-testid="console-header">
        <div className="flex items-center gap-x-2 whitespace-nowrap px-4 py-2">
          <span className="font-semibold">Remit Console</span>
          <ConsoleNav groups={navigationFor(operator.role)} approvals={approvals} />
          {/* The operator's own account (password, second factor): behind their name too. */}
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
      {/* An auditor's console is read-only: app/globals.css hides its action forms (the server refuses them anyway). */}
      <main className="mx-auto max-w-6xl p-4 sm:p-6" data-read-only={operator.role === "auditor" ? "" : undefined}>
        {children}
      </main>
    </div>
  );
}
