import { randomInt } from "node:crypto";

/**
 * A fresh valid CLABE (18 digits, weights 3, 7, 1 and a check digit): monitoring counts senders per
 * destination identifier, so tests that must not meet other tests' destinations use their own.
 */
export function freshClabe(): string {
  const body = "002010" + Array.from({ length: 11 }, () => randomInt(10)).join("");
  const sum = [...body].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
  return body + String((10 - (sum % 10)) % 10);
}
