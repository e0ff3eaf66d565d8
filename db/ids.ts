import { randomInt } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * Opaque, prefixed identifiers (`trf_8k2...`): the prefix tells a support engineer what a value
 * is; 24 characters of base36 (~124 bits) make them unguessable.
 */
export function newId(prefix: string, length = 24): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}_${out}`;
}
