/**
 * The windowed aggregates a rule may read, one named function each. Each reads
 * over an index added for it (db/schema: transfers by customer, beneficiary and payout method with
 * submitted_at; beneficiaries by subscription and created_at; payout methods by destination key;
 * devices by kid; login identifiers and customers' addresses by their normal forms): never a scan. The evaluation
 * sends every aggregate a rule set needs in one statement (./evaluate.ts).
 *
 * Windows end at `asOf` (the fast-check's now; a backtest's transfer's submit time), so a backtest
 * reads what the live evaluation could have read. The transfer being evaluated counts (it is
 * submitted): "more than 5 in 24 h" holds the sixth.
 */
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { beneficiaries, customers, devices, loginIdentifiers, payoutMethods, subscriptions, transfers } from "@/db/schema";
import { sharingCustomers } from "@/lib/identity";
import type { Decimal } from "@/lib/platform/money/decimal";
import { WINDOW_SECONDS, WINDOWS, type AggregateName, type Window } from "./aggregate-names";

/** What the aggregates are about: the transfer under evaluation. */
export interface AggregateSubject {
  transferId: string;
  customerId: string;
  beneficiaryId: string;
  /** The payout method's destination key (null: a method stored before destination keys existed). */
  destinationKey: string | null;
  originCurrency: string;
  asOf: Date;
}

export interface AggregateArgs {
  window?: Window;
  lower?: Decimal;
  upper?: Decimal;
}

/**
 * How an aggregate is read. The windowed aggregates of transfers are expressions over one pass of
 * them in the widest window any of them asks (each keeps to its own window and sender with a
 * FILTER): one index range read once, where a subquery each read it five times, and one pass for the
 * sender's aggregates and for those of every customer sharing an identifier with it ("linked"),
 * where two passes read the sender's transfers twice (docs/decisions.md, "Transaction monitoring").
 * The others are scalar subqueries of their own.
 */
export type Pass = "sender" | "linked";
export type AggregateRead = { overPass: SQL; pass: Pass; window: Window } | { subquery: SQL };

/**
 * The subject as a statement names it: placeholders, filled from subjectValues, so that a statement
 * is built and compiled once per shape (the aggregates it reads) and only its values change
 * (./evaluate.ts). Without a destination key, destinationDistinctSenders reads no subquery.
 */
export interface BoundSubject {
  transferId: Placeholder;
  customerId: Placeholder;
  beneficiaryId: Placeholder;
  destinationKey: Placeholder | null;
  originCurrency: Placeholder;
  asOf: SQL;
  /** Where each window starts (asOf less its length). */
  from: Record<Window, SQL>;
}

export function boundSubject(hasDestination: boolean): BoundSubject {
  const at = (name: string) => sql`${sql.placeholder(name)}::timestamptz`;
  return {
    transferId: sql.placeholder("transferId"),
    customerId: sql.placeholder("customerId"),
    beneficiaryId: sql.placeholder("beneficiaryId"),
    destinationKey: hasDestination ? sql.placeholder("destinationKey") : null,
    originCurrency: sql.placeholder("originCurrency"),
    asOf: at("asOf"),
    from: Object.fromEntries(WINDOWS.map((w) => [w, at(`from${w}`)])) as Record<Window, SQL>,
  };
}

export function subjectValues(s: AggregateSubject): Record<string, string | null> {
  const values: Record<string, string | null> = { ...s, asOf: s.asOf.toISOString() };
  for (const w of WINDOWS) values[`from${w}`] = new Date(s.asOf.getTime() - WINDOW_SECONDS[w] * 1000).toISOString();
  return values;
}

type AggregateFn = (s: BoundSubject, a: AggregateArgs) => AggregateRead;

const from = (s: BoundSubject, a: AggregateArgs) => s.from[a.window ?? "24h"];

/** A row of the pass inside this aggregate's window (the pass ends at asOf). */
const inWindow = (s: BoundSubject, a: AggregateArgs) => sql`${transfers.submittedAt} > ${from(s, a)}`;
/** A row of the pass that is the sender's, inside this aggregate's window (the pass may hold linked customers' too). */
const sendersInWindow = (s: BoundSubject, a: AggregateArgs) => sql`${transfers.customerId} = ${s.customerId} and ${inWindow(s, a)}`;
const sameCurrency = (s: BoundSubject) => sql`${transfers.originCurrency} = ${s.originCurrency}`;
/** Numeric already: the pass reads the amount as a number once per row (pass()), not once per expression. */
const amount = sql`${transfers.originAmount}`;
const inBand = (a: AggregateArgs) => sql`${amount} >= ${a.lower?.toString() ?? "0"}::numeric and ${amount} < ${a.upper?.toString() ?? "0"}::numeric`;
const overSenderPass = (a: AggregateArgs, expression: SQL): AggregateRead => ({ overPass: expression, pass: "sender", window: a.window ?? "24h" });
const overLinkedPass = (a: AggregateArgs, expression: SQL): AggregateRead => ({ overPass: expression, pass: "linked", window: a.window ?? "24h" });

export const AGGREGATES: Record<AggregateName, AggregateFn> = {
  /** Transfers the sender submitted in the window (any corridor). */
  senderTransferCount: (s, a) => overSenderPass(a, sql`count(*) filter (where ${sendersInWindow(s, a)})`),
  /** Their sum, in the evaluated transfer's origin currency (others are not added across currencies). */
  senderTransferSum: (s, a) => overSenderPass(a, sql`coalesce(sum(${amount}) filter (where ${sendersInWindow(s, a)} and ${sameCurrency(s)}), 0)`),
  /** Transfers in the window with an amount in [lower, upper) (structuring's band). */
  senderBandCount: (s, a) => overSenderPass(a, sql`count(*) filter (where ${sendersInWindow(s, a)} and ${sameCurrency(s)} and ${inBand(a)})`),
  senderBandSum: (s, a) => overSenderPass(a, sql`coalesce(sum(${amount}) filter (where ${sendersInWindow(s, a)} and ${sameCurrency(s)} and ${inBand(a)}), 0)`),
  /**
   * The band aggregates over the transfers of the sender and of every customer sharing an
   * identifier with it (address, phone number or mailbox in normal form, device key): one person
   * under several customers, or several people acting together, split an amount between them.
   */
  linkedBandCount: (s, a) => overLinkedPass(a, sql`count(*) filter (where ${inWindow(s, a)} and ${sameCurrency(s)} and ${inBand(a)})`),
  linkedBandSum: (s, a) => overLinkedPass(a, sql`coalesce(sum(${amount}) filter (where ${inWindow(s, a)} and ${sameCurrency(s)} and ${inBand(a)}), 0)`),
  /**
   * What the sender sent to this beneficiary in the window (this transfer included), in its origin
   * currency. With the beneficiary younger than the window, all it was sent in its first days: a
   * small test payment first does not make the large one after it a second transfer.
   */
  beneficiaryTransferSum: (s, a) =>
    overSenderPass(
      a,
      sql`coalesce(sum(${amount}) filter (where ${sendersInWindow(s, a)} and ${sameCurrency(s)} and ${transfers.beneficiaryId} = ${s.beneficiaryId}), 0)`,
    ),
  /** Distinct customers (any partner) whose transfers in the window paid this destination identifier. */
  destinationDistinctSenders: (s, a) => ({
    subquery:
      s.destinationKey === null
        ? sql`1`
        : sql`(select count(distinct ${transfers.customerId}) from ${payoutMethods} join ${transfers} on ${transfers.payoutMethodId} = ${payoutMethods.id}
          where ${payoutMethods.destinationKey} = ${s.destinationKey} and ${transfers.submittedAt} > ${from(s, a)} and ${transfers.submittedAt} <= ${s.asOf})`,
  }),
  /** Beneficiaries the sender created in the window, through any of their partners. */
  senderBeneficiariesCreated: (s, a) => ({
    subquery: sql`(select count(*) from ${beneficiaries} join ${subscriptions} on ${subscriptions.id} = ${beneficiaries.subscriptionId}
      where ${subscriptions.customerId} = ${s.customerId} and ${beneficiaries.createdAt} > ${from(s, a)} and ${beneficiaries.createdAt} <= ${s.asOf})`,
  }),
  /**
   * Of those, how many the sender paid in the window. The sender's beneficiaries created in the
   * window are read once (beneficiaries_created_idx, an uncorrelated hashed subplan), not looked up
   * by id for each transfer of the pass: a transfer's beneficiary is always of its subscription, so
   * of the sender.
   */
  senderNewBeneficiariesPaid: (s, a) =>
    overSenderPass(
      a,
      sql`count(distinct ${transfers.beneficiaryId}) filter (where ${sendersInWindow(s, a)}
        and ${transfers.beneficiaryId} in (select ${beneficiaries.id} from ${beneficiaries} join ${subscriptions} on ${subscriptions.id} = ${beneficiaries.subscriptionId}
          where ${subscriptions.customerId} = ${s.customerId} and ${beneficiaries.createdAt} > ${from(s, a)}))`,
    ),
  /** Customers (the sender included) with a device holding one of the sender's device keys (any status). */
  customersSharingDevice: (s) => ({
    subquery: sql`(select count(distinct s2.customer_id) from ${subscriptions} s1 join ${devices} d1 on d1.subscription_id = s1.id
      join ${devices} d2 on d2.kid = d1.kid join ${subscriptions} s2 on s2.id = d2.subscription_id where s1.customer_id = ${s.customerId})`,
  }),
  /** Customers (the sender included) logging in with one of the sender's phone numbers (E.164), at any partner. */
  customersSharingPhone: (s) => ({
    subquery: sql`(select count(distinct s2.customer_id) from ${subscriptions} s1 join ${loginIdentifiers} l1 on l1.subscription_id = s1.id and l1.type = 'PHONE'
      join ${loginIdentifiers} l2 on l2.match_key = l1.match_key join ${subscriptions} s2 on s2.id = l2.subscription_id where s1.customer_id = ${s.customerId})`,
  }),
  /** Customers (the sender included) logging in with one of the sender's mailboxes (normal form: gmail's dots and plus tags folded), at any partner. */
  customersSharingEmail: (s) => ({
    subquery: sql`(select count(distinct s2.customer_id) from ${subscriptions} s1 join ${loginIdentifiers} l1 on l1.subscription_id = s1.id and l1.type = 'EMAIL'
      join ${loginIdentifiers} l2 on l2.match_key = l1.match_key join ${subscriptions} s2 on s2.id = l2.subscription_id where s1.customer_id = ${s.customerId})`,
  }),
  /** Customers (the sender included) whose residence address is the sender's in normal form (customers_address_key_idx). */
  customersSharingAddress: (s) => ({
    subquery: sql`(select count(*) from ${customers} where ${customers.addressKey} = (select ${customers.addressKey} from ${customers} where id = ${s.customerId}))`,
  }),
  /** The sender's transfers of the window that were funded and then cancelled (refunded). */
  senderFundedThenCancelled: (s, a) =>
    overSenderPass(a, sql`count(*) filter (where ${sendersInWindow(s, a)} and ${transfers.fundedFrom} is not null and ${transfers.cancellation} is not null)`),
  /** Transfers to this beneficiary submitted before this one (0: this is the first). */
  beneficiaryPriorTransfers: (s) => ({
    subquery: sql`(select count(*) from ${transfers} where ${transfers.beneficiaryId} = ${s.beneficiaryId} and ${transfers.id} <> ${s.transferId} and ${transfers.submittedAt} <= ${s.asOf})`,
  }),
};

/**
 * The pass: the transfers submitted in the window (transfers_customer_submitted_idx) of the sender,
 * or, when any aggregate is "linked", of the sender and every customer sharing an identifier with
 * it, read once for the named expressions, as a one-row FROM item (an aggregate without GROUP BY).
 * The inner select reads each row's amount as numeric once (OFFSET 0 keeps it from being folded
 * into the expressions, which would parse the text again in each of them), under the column's own
 * name, so the expressions read `transfers.origin_amount` as a number.
 */
export function pass(s: BoundSubject, linked: boolean, window: Window, columns: SQL[]): SQL {
  const whose = linked
    ? sql`${transfers.customerId} in (select ${s.customerId}::text union select customer_id from (${sharingCustomers(sql`${s.customerId}`)}) shared)`
    : sql`${transfers.customerId} = ${s.customerId}`;
  const read = [transfers.customerId, transfers.submittedAt, transfers.originCurrency, transfers.beneficiaryId, transfers.fundedFrom, transfers.cancellation];
  return sql`(select ${sql.join(columns, sql`, `)} from (select ${sql.join(
    read.map((c) => sql.identifier(c.name)),
    sql`, `,
  )}, ${sql.identifier(transfers.originAmount.name)}::numeric as ${sql.identifier(transfers.originAmount.name)} from ${transfers}
    where ${whose} and ${transfers.submittedAt} > ${s.from[window]} and ${transfers.submittedAt} <= ${s.asOf} offset 0) as ${transfers})`;
}

/** How an aggregate read is named in the evaluation record: `senderBandCount(24h, 900, 1000)`. */
export function aggregateKey(name: AggregateName, a: AggregateArgs): string {
  const args = [a.window, a.lower?.toString(), a.upper?.toString()].filter((x) => x !== undefined);
  return `${name}(${args.join(", ")})`;
}
