/**
 * Customers sharing an identifier with a customer: the same residence address, phone number or
 * mailbox in normal form (./normal-form.ts, as stored in customers.address_key and
 * login_identifiers.match_key), or the same device key. One definition for monitoring (the
 * transfers of customers sharing an identifier with the sender) and for the console's customer page.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { rowsOf } from "@/db";
import { customers, devices, loginIdentifiers, subscriptions } from "@/db/schema";

export const SHARED_IDENTIFIER_KINDS = ["address", "phone", "email", "device"] as const;
export type SharedIdentifierKind = (typeof SHARED_IDENTIFIER_KINDS)[number];

/**
 * Rows (customer_id, kind) of the other customers sharing an identifier with `customerId` (an SQL
 * value: a placeholder or a parameter). Each branch an index lookup from the customer's own rows
 * (customers_address_key_idx, login_identifiers_match_key_idx, devices by kid).
 */
export function sharingCustomers(customerId: SQL): SQL {
  return sql`select c2.id as customer_id, 'address' as kind from ${customers} c1 join ${customers} c2 on c2.address_key = c1.address_key
      where c1.id = ${customerId} and c2.id <> c1.id
    union select s2.customer_id, lower(l1.type) from ${subscriptions} s1 join ${loginIdentifiers} l1 on l1.subscription_id = s1.id
      join ${loginIdentifiers} l2 on l2.match_key = l1.match_key join ${subscriptions} s2 on s2.id = l2.subscription_id
      where s1.customer_id = ${customerId} and s2.customer_id <> s1.customer_id
    union select s2.customer_id, 'device' from ${subscriptions} s1 join ${devices} d1 on d1.subscription_id = s1.id
      join ${devices} d2 on d2.kid = d1.kid join ${subscriptions} s2 on s2.id = d2.subscription_id
      where s1.customer_id = ${customerId} and s2.customer_id <> s1.customer_id`;
}

/** For the console: the customers sharing an identifier with this one, what they share, and a subscription of each to link to. */
export async function customersSharingIdentifiers(
  db: Executor,
  customerId: string,
): Promise<{ customerId: string; subscriptionId: string | null; shared: SharedIdentifierKind[] }[]> {
  const rows = rowsOf<{ customer_id: string; kinds: SharedIdentifierKind[] | string; subscription_id: string | null }>(
    await db.execute(sql`select shared.customer_id, array_agg(distinct shared.kind order by shared.kind) as kinds,
        (select min(${subscriptions.id}) from ${subscriptions} where ${subscriptions.customerId} = shared.customer_id) as subscription_id
      from (${sharingCustomers(sql`${customerId}`)}) shared group by shared.customer_id order by shared.customer_id limit 100`),
  );
  return rows.map((r) => ({
    customerId: r.customer_id,
    subscriptionId: r.subscription_id,
    shared: (Array.isArray(r.kinds) ? r.kinds : r.kinds.replace(/^\{|\}$/g, "").split(",")) as SharedIdentifierKind[],
  }));
}
