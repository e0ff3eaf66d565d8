import type { PgSelect, SelectedFields } from "drizzle-orm/pg-core";
import type { subscriptions } from "@/db/schema";

/**
 * A customer read run in its caller's statement: its columns are added to the caller's
 * and its tables joined to the caller's subscription and customer (`scope`), so the read costs no
 * second round trip. The key's partner and the token's session (both unique) give one row at most,
 * so a page joined this way (its conditions in the ON clause, its order and limit on the
 * statement) answers the page's rows, or one row of nulls when the page is empty.
 * The join is made whatever the token is worth: its columns are only looked at once the caller,
 * then the gate, have been accepted, exactly as when the read was a statement of its own.
 */
export interface ReadWithCaller<I, R> {
  /** Names the prepared statement (one per process and shape): auth_customer_<name><shape>. */
  name: string;
  /** Which optional parts (filters) this input's statement has; each shape is its own prepared statement. */
  shape?: (input: I) => string;
  /** The read's columns, none named like the caller's. */
  fields: SelectedFields;
  /**
   * Joins the read's tables (LEFT JOIN, so a missing resource keeps the caller's row) and sets
   * order and limit; built once per shape, with placeholders for the values below.
   */
  join: (query: PgSelect, scope: { subscriptionId: typeof subscriptions.id; customerId: typeof subscriptions.customerId }, input: I) => PgSelect;
  /** The read's placeholder values, or undefined when this request cannot be joined (it is read after the caller). */
  values: (input: I) => Record<string, unknown> | undefined;
  /** The read's answer from the statement's rows (the caller's columns are in them too); throws its not-found. */
  answer: (rows: Record<string, unknown>[], input: I) => R;
}
