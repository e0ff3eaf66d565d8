/**
 * The windowed aggregates a rule may read (issue 22 item 1), one named function each. Each returns
 * a scalar subquery over an index added for it (db/schema: transfers by customer, beneficiary and
 * payout method with submitted_at; beneficiaries by subscription and created_at; payout methods by
 * destination key; devices by kid; login identifiers by value; customers by address): never a scan.
 * The evaluation sends every subquery a rule set needs in one statement (./evaluate.ts).
 *
 * Windows end at `asOf` (the fast-check's now; a backtest's transfer's submit time), so a backtest
 * reads what the live evaluation could have read. The transfer being evaluated counts (it is
 * submitted): "more than 5 in 24 h" holds the sixth.
 */
import { sql, type SQL } from "drizzle-orm";
import {
  beneficiaries,
  CUSTOMER_ADDRESS_LINE,
  CUSTOMER_POSTAL_CODE,
  customers,
  devices,
  loginIdentifiers,
  payoutMethods,
  subscriptions,
  transfers,
} from "@/db/schema";
import type { Decimal } from "@/lib/money/decimal";
import { WINDOW_SECONDS, type AggregateName, type Window } from "./aggregate-names";

/** What the aggregates are about: the transfer under evaluation. */
export interface AggregateSubject {
  transferId: string;
  customerId: string;
  beneficiaryId: string;
  /** The payout method's destination key (null: a method stored before issue 22). */
  destinationKey: string | null;
  originCurrency: string;
  asOf: Date;
}

export interface AggregateArgs {
  window?: Window;
  lower?: Decimal;
  upper?: Decimal;
}

type AggregateFn = (s: AggregateSubject, a: AggregateArgs) => SQL;

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const from = (s: AggregateSubject, a: AggregateArgs) => at(new Date(s.asOf.getTime() - WINDOW_SECONDS[a.window ?? "24h"] * 1000));

/** The sender's transfers submitted in the window (transfers_customer_submitted_idx). */
const senderWindow = (s: AggregateSubject, a: AggregateArgs) =>
  sql`${transfers.customerId} = ${s.customerId} and ${transfers.submittedAt} > ${from(s, a)} and ${transfers.submittedAt} <= ${at(s.asOf)}`;
const sameCurrency = (s: AggregateSubject) => sql`${transfers.originCurrency} = ${s.originCurrency}`;
const amount = sql`${transfers.originAmount}::numeric`;
const inBand = (a: AggregateArgs) => sql`${amount} >= ${a.lower?.toString() ?? "0"}::numeric and ${amount} < ${a.upper?.toString() ?? "0"}::numeric`;

export const AGGREGATES: Record<AggregateName, AggregateFn> = {
  /** Transfers the sender submitted in the window (any corridor). */
  senderTransferCount: (s, a) => sql`(select count(*) from ${transfers} where ${senderWindow(s, a)})`,
  /** Their sum, in the evaluated transfer's origin currency (others are not added across currencies). */
  senderTransferSum: (s, a) => sql`(select coalesce(sum(${amount}), 0) from ${transfers} where ${senderWindow(s, a)} and ${sameCurrency(s)})`,
  /** Transfers in the window with an amount in [lower, upper) (structuring's band). */
  senderBandCount: (s, a) => sql`(select count(*) from ${transfers} where ${senderWindow(s, a)} and ${sameCurrency(s)} and ${inBand(a)})`,
  senderBandSum: (s, a) => sql`(select coalesce(sum(${amount}), 0) from ${transfers} where ${senderWindow(s, a)} and ${sameCurrency(s)} and ${inBand(a)})`,
  /** Distinct customers (any partner) whose transfers in the window paid this destination identifier. */
  destinationDistinctSenders: (s, a) =>
    s.destinationKey === null
      ? sql`1`
      : sql`(select count(distinct ${transfers.customerId}) from ${payoutMethods} join ${transfers} on ${transfers.payoutMethodId} = ${payoutMethods.id}
          where ${payoutMethods.destinationKey} = ${s.destinationKey} and ${transfers.submittedAt} > ${from(s, a)} and ${transfers.submittedAt} <= ${at(s.asOf)})`,
  /** Beneficiaries the sender created in the window, through any of their partners. */
  senderBeneficiariesCreated: (s, a) =>
    sql`(select count(*) from ${beneficiaries} join ${subscriptions} on ${subscriptions.id} = ${beneficiaries.subscriptionId}
      where ${subscriptions.customerId} = ${s.customerId} and ${beneficiaries.createdAt} > ${from(s, a)} and ${beneficiaries.createdAt} <= ${at(s.asOf)})`,
  /** Of those, how many the sender paid in the window. */
  senderNewBeneficiariesPaid: (s, a) =>
    sql`(select count(distinct ${transfers.beneficiaryId}) from ${transfers} join ${beneficiaries} on ${beneficiaries.id} = ${transfers.beneficiaryId}
      where ${senderWindow(s, a)} and ${beneficiaries.createdAt} > ${from(s, a)})`,
  /** Customers (the sender included) with a device holding one of the sender's device keys (any status). */
  customersSharingDevice: (s) =>
    sql`(select count(distinct s2.customer_id) from ${subscriptions} s1 join ${devices} d1 on d1.subscription_id = s1.id
      join ${devices} d2 on d2.kid = d1.kid join ${subscriptions} s2 on s2.id = d2.subscription_id where s1.customer_id = ${s.customerId})`,
  /** Customers (the sender included) logging in with one of the sender's phone numbers, at any partner. */
  customersSharingPhone: (s) =>
    sql`(select count(distinct s2.customer_id) from ${subscriptions} s1 join ${loginIdentifiers} l1 on l1.subscription_id = s1.id and l1.type = 'PHONE'
      join ${loginIdentifiers} l2 on l2.value = l1.value join ${subscriptions} s2 on s2.id = l2.subscription_id where s1.customer_id = ${s.customerId})`,
  /** Customers (the sender included) whose residence address line 1 and postal code are the sender's (customers_address_idx). */
  customersSharingAddress: (s) =>
    sql`(select count(*) from ${customers} where (${CUSTOMER_ADDRESS_LINE}, ${CUSTOMER_POSTAL_CODE}) =
      (select ${CUSTOMER_ADDRESS_LINE}, ${CUSTOMER_POSTAL_CODE} from ${customers} where id = ${s.customerId}))`,
  /** The sender's transfers of the window that were funded and then cancelled (refunded). */
  senderFundedThenCancelled: (s, a) =>
    sql`(select count(*) from ${transfers} where ${senderWindow(s, a)} and ${transfers.fundedFrom} is not null and ${transfers.cancellation} is not null)`,
  /** Transfers to this beneficiary submitted before this one (0: this is the first). */
  beneficiaryPriorTransfers: (s) =>
    sql`(select count(*) from ${transfers} where ${transfers.beneficiaryId} = ${s.beneficiaryId} and ${transfers.id} <> ${s.transferId} and ${transfers.submittedAt} <= ${at(s.asOf)})`,
};

/** How an aggregate read is named in the evaluation record: `senderBandCount(24h, 900, 1000)`. */
export function aggregateKey(name: AggregateName, a: AggregateArgs): string {
  const args = [a.window, a.lower?.toString(), a.upper?.toString()].filter((x) => x !== undefined);
  return `${name}(${args.join(", ")})`;
}
