import type { OperatorRole } from "@/lib/operations/operators/records";

/**
 * Every console page an operator opens from the header, grouped as the work is:
 * money moving, compliance, the books, partners, and the console's own settings. A page reached
 * only from another (a transfer, a case, a proposal: they have an id in their path) is not here;
 * test/unit/console/navigation.test.ts fails when a page under app/console is neither.
 * Overview and Approvals (with its badge) stand apart in the header.
 */
export const NAVIGATION: { label: string; links: (readonly [href: string, label: string, role: OperatorRole])[] }[] = [
  {
    label: "Money",
    links: [
      ["/console/transfers", "Transfers", "reviewer"],
      ["/console/review", "Review", "reviewer"],
      ["/console/holds", "Holds", "reviewer"],
      ["/console/bank-credits", "Bank credits", "reviewer"],
      ["/console/claims", "Claims", "reviewer"],
      ["/console/refunds", "Refunds", "admin"],
      ["/console/payout-files", "Payout files", "admin"],
      ["/console/liquidity", "Payout liquidity", "admin"],
    ],
  },
  {
    label: "Compliance",
    links: [
      ["/console/cases", "Cases", "reviewer"],
      ["/console/screening-cases", "Screening cases", "reviewer"],
      ["/console/beneficiaries", "Screening", "reviewer"],
      ["/console/kyc-review", "KYC review", "reviewer"],
      ["/console/customers", "Customers", "reviewer"],
      ["/console/monitoring", "Monitoring", "admin"],
    ],
  },
  {
    label: "Books",
    links: [
      ["/console/ledger", "Ledger", "admin"],
      ["/console/ledger/journals", "Journals", "admin"],
      ["/console/ledger/month", "Month end", "admin"],
      ["/console/ledger/reconciliation", "Reconciliation", "admin"],
    ],
  },
  {
    label: "Partners",
    links: [
      ["/console/partners", "Partners", "admin"],
      ["/console/webhooks", "Webhooks", "admin"],
      ["/console/deliveries", "Failed deliveries", "admin"],
    ],
  },
  {
    label: "Settings",
    links: [
      ["/console/configuration", "Configuration", "admin"],
      ["/console/operators", "Operators", "admin"],
      ["/console/audit", "Audit log", "admin"],
      ["/console/account", "Your account", "reviewer"],
    ],
  },
];

/** Pages the header links outside the groups. */
export const HEADER_PAGES = ["/console", "/console/approvals"] as const;

/** The groups as `role` sees them: an admin and an auditor every page, a reviewer the queues (a group left empty is not shown). */
export function navigationFor(role: OperatorRole) {
  return NAVIGATION.map((g) => ({
    label: g.label,
    links: g.links.filter(([, , r]) => role !== "reviewer" || r === "reviewer").map(([href, label]) => [href, label] as const),
  })).filter((g) => g.links.length > 0);
}
