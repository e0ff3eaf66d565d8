import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { partners } from "./partners";

/** Ocp-Apim-Subscription-Key values, stored as SHA-256 hashes (the key itself is shown once). */
export const partnerApiKeys = pgTable(
  "partner_api_keys",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id),
    keyHash: text("key_hash").notNull(),
    /** First characters of the key, so operators can tell keys apart. */
    keyPrefix: text("key_prefix").notNull(),
    createdAt: createdAt(),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [
    // Every partner call looks its key up by hash.
    uniqueIndex("partner_api_keys_hash_idx").on(t.keyHash),
    index("partner_api_keys_partner_idx").on(t.partnerId),
  ],
);
