import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { partners } from "./partners";
import { subscriptions } from "./subscriptions";

/** IdentifierType (its rules: `lib/identity/auth/identifiers.ts`). */
export const IDENTIFIER_TYPES = ["EMAIL", "PHONE"] as const;

export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

/** Email addresses and phone numbers a customer logs in with (IdentifierSummary). */
export const loginIdentifiers = pgTable(
  "login_identifiers",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    type: text("type").$type<IdentifierType>().notNull(),
    /** Normalised: lower-case email or E.164 phone. */
    value: text("value").notNull(),
    /** The identifier as a mailbox or number (lib/identity/identifiers/normal-form.ts identifierMatchKey): how identifiers are compared. */
    matchKey: text("match_key"),
    verifiedAt: tstz("verified_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Login start resolves an identifier within the partner; one owner per identifier.
    uniqueIndex("login_identifiers_partner_value_idx").on(t.partnerId, t.value),
    index("login_identifiers_subscription_idx").on(t.subscriptionId),
    // Monitoring: customers sharing a phone number or mailbox, across partners.
    index("login_identifiers_match_key_idx").on(t.matchKey),
  ],
);
