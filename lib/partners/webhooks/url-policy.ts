import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";

/** Resolves a host name to every address (injectable so tests can play a rebinding DNS). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true });

// Global unicast IPv6 (RFC 4291). Everything outside it is refused, which covers the forms that
// embed an IPv4 address: IPv4-compatible (::7f00:1), IPv4-translated (::ffff:0:a.b.c.d),
// local NAT64 (64:ff9b:1::/48); well-known NAT64, 6to4 and Teredo inside 2000::/3 have their own
// ipaddr.js ranges and are refused below.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Why an address is not a public unicast address, or null when it is. IPv4-mapped IPv6
 * (::ffff:127.0.0.1) is judged as the IPv4 address it maps to.
 */
export function nonPublicReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return "an invalid address";
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== "unicast") return `a ${range} address`;
  if (ip.kind() === "ipv6" && !ip.match(GLOBAL_UNICAST_V6)) return "a non-global IPv6 address";
  return null;
}

/**
 * Production webhook URLs must be https and must not reach private, loopback or other non-public
 * addresses (decisions section 9), so a partner setting cannot make us call our own network.
 * Checked when the URL is set (resolving the name, for a helpful error); at each delivery
 * `assertDeliverableUrlShape` checks the URL and `pinnedLookup` the addresses actually connected to.
 */
export async function assertDeliverableUrl(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<void> {
  const host = assertDeliverableUrlShape(raw, allowPrivate);
  if (host !== null && !ipaddr.isValid(host)) assertPublic((await resolve(host)).map((a) => a.address));
}

/**
 * The checks that need no DNS: a URL, https (http too when private addresses are allowed), and
 * a literal IP host public. Returns the host still to check by name, or null when allowed as is.
 */
export function assertDeliverableUrlShape(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("not a URL");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) throw new Error(allowPrivate ? "URL must be http(s)" : "URL must be https");
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) assertPublic([host]);
  return host;
}

function assertPublic(addresses: string[]): void {
  if (addresses.length === 0) throw new Error("URL resolves to no address");
  for (const address of addresses) {
    const reason = nonPublicReason(address);
    if (reason) throw new Error(`URL resolves to ${reason}`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that resolves the name once, refuses the connection unless every address
 * is public (when private ones are not allowed), and hands exactly those addresses to the socket:
 * nothing resolves the name a second time, so there is no DNS-rebinding window between the check
 * and the connection. Literal IP hosts never reach a lookup; `assertDeliverableUrl` covers them.
 */
export function pinnedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver) {
  return (host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(host)
      .then((addresses) => {
        if (!allowPrivate) assertPublic(addresses.map((a) => a.address));
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      })
      .catch((err: Error) => callback(Object.assign(err, { code: (err as NodeJS.ErrnoException).code ?? "EADDRNOTAVAIL" }), []));
  };
}
