import { boolean, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { subscriptions } from "./subscriptions";

/** BeneficiaryState: the states its machine moves (`lib/payments/beneficiaries/state-machine.ts`). */
export const BENEFICIARY_STATES = ["PENDING", "VALID", "MONITORED", "BLOCKED", "ARCHIVED"] as const;

export type BeneficiaryState = (typeof BENEFICIARY_STATES)[number];

/** A beneficiary's relationship to the customer (spec 2.4). */
export const RELATIONSHIPS = ["FAMILY", "SELF", "FRIEND", "BUSINESS", "OTHER"] as const;

export type Relationship = (typeof RELATIONSHIPS)[number];

/**
 * A beneficiary's residence address (optional at creation): the spec's StructuredAddress, the
 * shape of the customer's residenceAddress. Payout banks want the creditor's address (pain.002
 * BE04 MissingCreditorAddress, RR03), so when it is known the payout file carries it structured.
 */
export interface BeneficiaryAddress {
  addressLine1: string;
  addressLine2?: string;
  city: string;
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-3, the beneficiary's countryOfResidence. */
  country: string;
}

/** A person the customer sends money to (spec 2.4); states in lib/payments/beneficiaries/state-machine.ts. */
export const beneficiaries = pgTable(
  "beneficiaries",
  {
    id: text("id").primaryKey(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    dateOfBirth: text("date_of_birth"),
    nationality: text("nationality"),
    countryOfResidence: text("country_of_residence").notNull(),
    relationshipToCustomer: text("relationship_to_customer").$type<Relationship>().notNull(),
    /** The residence address when the customer gave it (optional): the payout file's structured creditor address. */
    address: jsonb("address").$type<BeneficiaryAddress>(),
    state: text("state").$type<BeneficiaryState>().notNull(),
    /** Internal screening evidence summary (CLEAR, CLOSE_MATCH, HIT); never returned by the API. */
    screeningResult: text("screening_result"),
    /** Set when a transfer is created for the beneficiary: the list sorts by it (spec 4.1 rule 6). */
    lastUsedAt: tstz("last_used_at"),
    archivedAt: tstz("archived_at"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull(),
  },
  // The list: a subscription's beneficiaries, most recently used first, then newest.
  // Monitoring: beneficiaries a sender created in a window.
  (t) => [
    index("beneficiaries_list_idx").on(t.subscriptionId, t.lastUsedAt, t.createdAt),
    index("beneficiaries_created_idx").on(t.subscriptionId, t.createdAt),
  ],
);

/** A destination of a beneficiary, added at transfer submit; the identifier is stored encrypted. */
export const payoutMethods = pgTable(
  "payout_methods",
  {
    id: text("id").primaryKey(),
    beneficiaryId: text("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    methodType: text("method_type").notNull(),
    corridor: text("corridor").notNull(),
    /** AES-256-GCM (lib/platform/crypto/field-encryption.ts); only the masked form is ever returned. */
    destinationIdentifierEncrypted: text("destination_identifier_encrypted").notNull(),
    destinationIdentifierMasked: text("destination_identifier_masked").notNull(),
    /**
     * HMAC of the method type and normalised identifier (lib/payments/transfers/destination-key.ts): lets
     * monitoring count the customers paying one destination without decrypting. Null for a method stored before destination keys existed.
     */
    destinationKey: text("destination_key"),
    archived: boolean("archived").notNull().default(false),
    addedAt: tstz("added_at").notNull(),
  },
  (t) => [index("payout_methods_beneficiary_idx").on(t.beneficiaryId), index("payout_methods_destination_key_idx").on(t.destinationKey)],
);
