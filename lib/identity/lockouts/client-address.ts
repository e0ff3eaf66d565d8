import ipaddr from "ipaddr.js";
import { config } from "@/lib/platform/config";

/** The bucket of requests whose client address cannot be read (documented fallback). */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * The client address that per-address throttles count against, from X-Forwarded-For
 * (docs/decisions.md, "Throttles"). Next 16 gives route handlers no socket address, but
 * `next start` writes the socket's address into X-Forwarded-For when the request has none.
 * - `trustedProxyHops` = n > 0 (n proxies in front, each appending the address it saw): the n-th
 *   entry from the right, written by the outermost trusted proxy; entries left of it are the
 *   client's own and ignored.
 * - 0 (clients reach Next directly): the rightmost entry, the socket address Next filled in. A
 *   client that sends its own header there picks its bucket: the per-identifier limits still hold,
 *   and a production deployment behind a proxy sets TRUSTED_PROXY_HOPS.
 * - no readable entry: one shared "unknown" bucket, so unreadable values never mint fresh buckets.
 * IPv4-mapped IPv6 counts as IPv4, and IPv6 per /64 (one subscriber's usual allocation).
 */
export function clientAddressFrom(forwardedFor: string | null | undefined, trustedProxyHops: number): string {
  const entries = (forwardedFor ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return UNKNOWN_ADDRESS;
  const entry = entries[Math.max(0, entries.length - Math.max(1, trustedProxyHops))];
  const bare = entry.replace(/^\[([^\]]+)\](:\d+)?$/, "$1").replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  if (!ipaddr.isValid(bare)) return UNKNOWN_ADDRESS;
  const address = ipaddr.process(bare);
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}

/** The client address of a request's X-Forwarded-For value, with the configured proxy hops. */
export function clientAddressOf(forwardedFor: string | null | undefined): string {
  return clientAddressFrom(forwardedFor, config().TRUSTED_PROXY_HOPS);
}
