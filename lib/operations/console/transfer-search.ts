import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { bankCredits, beneficiaries, customers, fundingSessions, partners, transfers } from "@/db/schema";
import { TRANSFER_STATES } from "@/lib/payments";
import { PAGE_SIZE } from "./queries";

/**
 * The console's transfers list and search. One box takes what an operator has
 * in hand and is read by its shape: a `trf_` id, a customer's `sub_`/`cus_` or a `partner_` id, an
 * RF creditor reference (the funding reference, with or without spaces), an amount (the sent,
 * received or total amount), or else a name: the customer's, the payer's on a bank credit, or the
 * beneficiary's. The state and a date range (the transfer's creation, UTC days) narrow it.
 */
export const TransferSearch = z.object({
  // Longer than any id, reference or name: cut, never refused (a page cannot answer 400).
  q: z
    .string()
    .trim()
    .default("")
    .transform((q) => q.slice(0, 140)),
  state: z.enum(TRANSFER_STATES).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});
export type TransferSearch = z.infer<typeof TransferSearch>;

/** How the box's text was read (shown to the operator, so a miss is understood). */
export type QueryKind = "none" | "transfer" | "subscription" | "customer" | "partner" | "reference" | "amount" | "name";

export function queryKind(q: string): QueryKind {
  if (!q) return "none";
  if (/^trf_/i.test(q)) return "transfer";
  if (/^sub_/i.test(q)) return "subscription";
  if (/^cus_/i.test(q)) return "customer";
  if (/^partner_/i.test(q)) return "partner";
  if (/^RF\d{2}[A-Z0-9 ]+$/i.test(q)) return "reference";
  if (/^\d{1,15}([.,]\d{1,6})?$/.test(q)) return "amount";
  return "name";
}

/** `%text%` for ILIKE with the pattern characters taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function matching(q: string): SQL | undefined {
  const kind = queryKind(q);
  switch (kind) {
    case "none":
      return undefined;
    case "transfer":
      return eq(transfers.id, q);
    case "subscription":
      return eq(transfers.subscriptionId, q);
    case "customer":
      return eq(transfers.customerId, q);
    case "partner":
      return eq(transfers.partnerId, q);
    case "reference": {
      const ref = q.replace(/\s+/g, "").toUpperCase();
      return or(
        sql`exists (select 1 from ${fundingSessions} where ${fundingSessions.transferId} = ${transfers.id} and ${fundingSessions.creditorReference} = ${ref})`,
        sql`exists (select 1 from ${bankCredits} where ${bankCredits.transferId} = ${transfers.id} and upper(replace(${bankCredits.creditorReference}, ' ', '')) = ${ref})`,
      );
    }
    case "amount": {
      const amount = q.replace(",", ".");
      // Amounts are exact decimal strings: compared as numerics, so 52.99 finds 52.990000.
      return or(
        sql`${transfers.originAmount}::numeric = ${amount}::numeric`,
        sql`${transfers.destinationAmount}::numeric = ${amount}::numeric`,
        sql`${transfers.totalCustomerCost}::numeric = ${amount}::numeric`,
      );
    }
    case "name": {
      const like = contains(q.replace(/\s+/g, " "));
      return or(
        sql`concat_ws(' ', ${customers.profile}->>'firstName', ${customers.profile}->>'lastName') ilike ${like}`,
        sql`concat_ws(' ', ${beneficiaries.firstName}, ${beneficiaries.lastName}) ilike ${like}`,
        sql`exists (select 1 from ${bankCredits} where ${bankCredits.transferId} = ${transfers.id} and ${bankCredits.payerName} ilike ${like})`,
      );
    }
  }
}

/** The columns a transfer's row or card shows: amounts, state, and its customer, partner and beneficiary by name beside their ids. */
const ESSENTIALS = {
  id: transfers.id,
  state: transfers.state,
  createdAt: transfers.createdAt,
  originAmount: transfers.originAmount,
  originCurrency: transfers.originCurrency,
  destinationAmount: transfers.destinationAmount,
  destinationCurrency: transfers.destinationCurrency,
  totalCustomerCost: transfers.totalCustomerCost,
  corridor: transfers.corridor,
  subscriptionId: transfers.subscriptionId,
  customerId: transfers.customerId,
  customerProfile: customers.profile,
  partnerId: transfers.partnerId,
  partnerName: partners.name,
  beneficiaryFirst: beneficiaries.firstName,
  beneficiaryLast: beneficiaries.lastName,
};

const DAY_MS = 86_400_000;

/** One page of transfers matching `search`, newest first, each with its customer, partner and beneficiary names beside their ids. */
export async function searchTransfers(db: Executor, search: TransferSearch, page: number) {
  const rows = await db
    .select({
      ...ESSENTIALS,
      reference: sql<string | null>`(select ${fundingSessions.creditorReference} from ${fundingSessions}
        where ${fundingSessions.transferId} = ${transfers.id} and ${fundingSessions.creditorReference} is not null
        order by ${fundingSessions.createdAt} desc limit 1)`,
    })
    .from(transfers)
    .innerJoin(customers, eq(customers.id, transfers.customerId))
    .innerJoin(partners, eq(partners.id, transfers.partnerId))
    .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
    .where(
      and(
        matching(search.q),
        search.state ? eq(transfers.state, search.state) : undefined,
        search.from ? gte(transfers.createdAt, new Date(`${search.from}T00:00:00Z`)) : undefined,
        search.to ? lt(transfers.createdAt, new Date(Date.parse(`${search.to}T00:00:00Z`) + DAY_MS)) : undefined,
      ),
    )
    .orderBy(desc(transfers.createdAt), desc(transfers.id))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  return { items: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE, kind: queryKind(search.q) };
}

/** The names a transfer's page shows beside its ids: the customer's (profile) and the partner's. */
export async function transferParties(db: Executor, transferId: string) {
  const [row] = await db
    .select({ customerProfile: customers.profile, partnerName: partners.name })
    .from(transfers)
    .innerJoin(customers, eq(customers.id, transfers.customerId))
    .innerJoin(partners, eq(partners.id, transfers.partnerId))
    .where(eq(transfers.id, transferId));
  return row;
}

/** The essentials of these transfers by id (a claim card shows its transfer's). */
export async function transferEssentials(db: Executor, transferIds: string[]) {
  const rows = transferIds.length
    ? await db
        .select(ESSENTIALS)
        .from(transfers)
        .innerJoin(customers, eq(customers.id, transfers.customerId))
        .innerJoin(partners, eq(partners.id, transfers.partnerId))
        .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
        .where(inArray(transfers.id, [...new Set(transferIds)]))
    : [];
  return new Map(rows.map((r) => [r.id, r]));
}
