/**
 * Direct access to the test server's database, for setup the public API cannot do (a second
 * partner is created in the operator console). Only on PostgreSQL (TEST_DRIVER=postgres with
 * TEST_DB_URL): PGlite is held by the server process alone, so there it is null.
 */
import type { Db } from "@/db";
import { connectPostgres } from "../../support/db";

export const serverDatabaseAvailable = process.env.TEST_DRIVER === "postgres" && !!process.env.TEST_DB_URL;

/** Runs `fn` on a connection of its own to the server's database, or returns null on PGlite. */
export async function withServerDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T | null> {
  if (!serverDatabaseAvailable) return null;
  const { db, close } = await connectPostgres(process.env.TEST_DB_URL!);
  try {
    return await fn(db);
  } finally {
    await close();
  }
}

/** A new partner with an active subscription key, through the console's own domain functions; null on PGlite. */
export async function newPartnerKey(): Promise<string | null> {
  return withServerDatabase(async (db) => {
    const { createPartner, issueApiKey } = await import("@/lib/partners/admin");
    return db.transaction(async (tx) => {
      const now = new Date();
      const partner = await createPartner(tx, { name: `Test partner ${now.getTime()}`, pricingMode: "SERVICE_PRICED", now });
      return (await issueApiKey(tx, partner.id, now)).apiKey;
    });
  });
}
