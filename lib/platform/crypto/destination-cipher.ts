import type { Executor } from "@/db";
import { config } from "@/lib/platform/config";
import { serviceSecret } from "@/lib/platform/secrets";
import { createFieldCipher, parseFieldEncryptionKeys, type FieldCipher } from "./field-encryption";

/**
 * The cipher for destination identifiers at rest (AES-256-GCM). Production: FIELD_ENCRYPTION_KEYS
 * ("keyId:base64,...", the first encrypts). Sandbox: a key generated once and kept in the database.
 */
export async function destinationCipher(db: Executor): Promise<FieldCipher> {
  const configured = config().FIELD_ENCRYPTION_KEYS;
  if (configured) return createFieldCipher(parseFieldEncryptionKeys(configured, configured.split(":")[0].trim()));
  const secret = await serviceSecret(db, "field-encryption-key");
  return createFieldCipher({ currentKeyId: "sandbox1", keys: { sandbox1: Buffer.from(secret, "base64url").toString("base64") } });
}
