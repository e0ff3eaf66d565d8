import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { serviceSecrets } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { randomToken } from "@/lib/platform/crypto/hash";

const CACHE = Symbol.for("remit.secrets");
type G = typeof globalThis & { [CACHE]?: Map<string, string> };

/**
 * A named service secret (cursor signing, sandbox field-encryption key): generated once, stored in
 * the database so every node and worker shares it, cached per process.
 */
export async function serviceSecret(db: Executor, name: string): Promise<string> {
  const cache = ((globalThis as G)[CACHE] ??= new Map());
  const cached = cache.get(name);
  if (cached) return cached;
  await db
    .insert(serviceSecrets)
    .values({ name, value: randomToken(32), createdAt: clock.now() })
    .onConflictDoNothing();
  const [row] = await db.select().from(serviceSecrets).where(eq(serviceSecrets.name, name));
  cache.set(name, row.value);
  return row.value;
}
