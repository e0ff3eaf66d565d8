import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, tstz } from "./columns";
import { subscriptions } from "./subscriptions";
import type { JWK } from "jose";

/** A registered device's status (spec 5.3): only an ACTIVE device may confirm transfers. */
export const DEVICE_STATUSES = ["ACTIVE", "DEACTIVATED"] as const;

export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** A pending device registration: the challenge the device must sign (5 minutes, single use). */
export const deviceRegistrations = pgTable("device_registrations", {
  id: text("id").primaryKey(),
  subscriptionId: text("subscription_id")
    .notNull()
    .references(() => subscriptions.id),
  challenge: text("challenge").notNull(),
  expiresAt: tstz("expires_at").notNull(),
  usedAt: tstz("used_at"),
  createdAt: createdAt(),
});

/** A customer device holding an RSA key for device-bound confirmation (spec 5.3). */
export const devices = pgTable(
  "devices",
  {
    id: text("id").primaryKey(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    /** RFC 7638 thumbprint of the public key; the kid of its assertions. */
    kid: text("kid").notNull(),
    publicJwk: jsonb("public_jwk").$type<JWK>().notNull(),
    deviceName: text("device_name"),
    /** ACTIVE or DEACTIVATED. */
    status: text("status").$type<DeviceStatus>().notNull(),
    registeredAt: tstz("registered_at").notNull(),
    deactivatedAt: tstz("deactivated_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // An assertion names its key by kid: one active device per key.
    uniqueIndex("devices_active_kid_idx")
      .on(t.kid)
      .where(sql`status = 'ACTIVE'`),
    index("devices_kid_idx").on(t.kid),
    index("devices_subscription_idx").on(t.subscriptionId),
  ],
);

/** Nonces of accepted device assertions: single use forever per device (spec 5.3 verification 4). */
export const deviceNonces = pgTable(
  "device_nonces",
  {
    deviceId: text("device_id").notNull(),
    nonce: text("nonce").notNull(),
    usedAt: tstz("used_at").notNull(),
  },
  (t) => [uniqueIndex("device_nonces_idx").on(t.deviceId, t.nonce)],
);
