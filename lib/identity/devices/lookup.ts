import { desc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { devices } from "@/db/schema";

export type DeviceRow = typeof devices.$inferSelect;

/**
 * The device an assertion's kid names. A kid (the key's RFC 7638 thumbprint) is unique among
 * ACTIVE devices only: a key deactivated and registered again leaves older DEACTIVATED rows with the
 * same kid. The active device wins; otherwise the most recently registered one (so a deactivated
 * key still answers device.deactivated).
 */
export async function deviceByKid(db: Executor, kid: string): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(eq(devices.kid, kid))
    .orderBy(sql`case when ${devices.status} = 'ACTIVE' then 0 else 1 end`, desc(devices.registeredAt), desc(devices.id))
    .limit(1);
  return row;
}
