import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { partnerApiKeys, partners } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { sha256Hex } from "@/lib/platform/crypto/hash";

export const DEMO_PARTNER_ID = "partner_demo";

/** Seeds the sandbox demo partner and its API key (decisions section 2); safe to run on every start. */
export async function seedSandbox(db: Db): Promise<void> {
  const now = clock.now();
  const key = config().SANDBOX_PARTNER_API_KEY;
  await db
    .insert(partners)
    .values({
      id: DEMO_PARTNER_ID,
      name: "Demo Partner",
      pricingMode: "SERVICE_PRICED",
      returnOrigins: ["http://localhost:3000", "http://127.0.0.1:3000"],
      deepLinkBase: "demopartner://remit",
      // Shown on disclosures and receipts; every partner sets its own in the console.
      providerContact: {
        name: "Demo Partner Remittances",
        phone: "+1 800 555 0100",
        website: "https://demo-partner.example.com/help",
        regulator: "Consumer Financial Protection Bureau, consumerfinance.gov, 855-411-2372",
      },
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  await db
    .insert(partnerApiKeys)
    .values({ id: "key_sandbox_demo", partnerId: DEMO_PARTNER_ID, keyHash: sha256Hex(key), keyPrefix: key.slice(0, 6), createdAt: now })
    .onConflictDoNothing();
}

/** decisions section 1: production refuses to start on a database holding the demo partner. */
export async function refuseSandboxData(db: Db): Promise<void> {
  const [demo] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, DEMO_PARTNER_ID));
  if (demo) throw new Error(`APP_MODE=production refuses a database with the sandbox partner ${DEMO_PARTNER_ID}`);
}
