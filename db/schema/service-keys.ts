import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import type { JWK } from "jose";

/**
 * The service's own secrets when no configuration provides them (sandbox): generated once on first
 * start and shared by every app node and worker through the database.
 */
export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/** RSA keys signing the service's quotes; public halves published at /.well-known/jwks.json. */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  privateJwk: jsonb("private_jwk").$type<JWK>().notNull(),
  publicJwk: jsonb("public_jwk").$type<JWK>().notNull(),
  /** A retired key signs nothing new but stays published until its last quote expires. */
  retiredAt: tstz("retired_at"),
  createdAt: createdAt(),
});
