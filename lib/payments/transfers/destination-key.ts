import { createHmac } from "node:crypto";
import type { Executor } from "@/db";
import { serviceSecret } from "@/lib/platform/secrets";

/**
 * The key transaction monitoring (lib/compliance/monitoring) counts a destination by, computed when
 * a transfer is submitted: (many senders, one destination): an HMAC
 * of the method type and the normalised identifier under a service secret kept in the database,
 * so the identifier itself stays encrypted and the key cannot be reversed by enumerating account
 * numbers without that secret.
 */
export async function destinationKey(db: Executor, methodType: string, normalisedIdentifier: string): Promise<string> {
  const secret = await serviceSecret(db, "monitoring-destination-key");
  return createHmac("sha256", secret).update(`${methodType}\u0000${normalisedIdentifier}`).digest("base64url");
}
