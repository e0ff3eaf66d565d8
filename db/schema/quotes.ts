import { bigint, index, pgSequence, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { beneficiaries } from "./beneficiaries";
import { createdAt, pricingChecks, pricingColumns, tstz } from "./columns";
import { partners } from "./partners";
import { subscriptions } from "./subscriptions";
import type { Language } from "@/lib/platform/i18n/language";

/** partner_quote_seq of the quotes the service signs itself (strictly increasing, never reused). */
export const serviceQuoteSeq = pgSequence("service_quote_seq", { startWith: 1 });

/** A signed quote (spec 2.5, 5.4): service-priced, or the partner's signed quote verified. */
export const quotes = pgTable(
  "quotes",
  {
    /** quote_id of the signed claims (partner-allocated for PARTNER_SIGNED quotes). */
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    beneficiaryId: text("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    /** SERVICE_PRICED or PARTNER_SIGNED. */
    pricingMode: text("pricing_mode").notNull(),
    jti: text("jti").notNull(),
    quoteSeq: bigint("quote_seq", { mode: "number" }).notNull(),
    corridor: text("corridor").notNull(),
    corridorDataVersion: text("corridor_data_version").notNull(),
    payoutMethod: text("payout_method").notNull(),
    corridorType: text("corridor_type").notNull(),
    ...pricingColumns(),
    /** The compact JWS: the service's signature, or the partner's for PARTNER_SIGNED. */
    signedQuote: text("signed_quote").notNull(),
    validUntil: tstz("valid_until").notNull(),
    acceptedAt: tstz("accepted_at"),
    transferId: text("transfer_id"),
    createdAt: createdAt(),
  },
  (t) => [
    // Spec 5.4: jti is globally unique and never reused.
    uniqueIndex("quotes_jti_idx").on(t.jti),
    index("quotes_subscription_idx").on(t.subscriptionId, t.createdAt),
    ...pricingChecks("quotes", t),
  ],
);

/** A served disclosure: its token binds the disclosure version to the quote and customer, single use. */
export const disclosures = pgTable(
  "disclosures",
  {
    tokenHash: text("token_hash").primaryKey(),
    quoteId: text("quote_id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    version: text("version").notNull(),
    language: text("language").$type<Language>().notNull(),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("disclosures_quote_idx").on(t.quoteId)],
);
