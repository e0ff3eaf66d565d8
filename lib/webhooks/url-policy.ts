import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/**
 * Production webhook URLs must be https and must not resolve to private, loopback or other
 * non-public addresses (decisions section 9), so a partner setting cannot make us call our own
 * network. Checked when the URL is set and again before each delivery (DNS can change).
 */
export async function assertDeliverableUrl(raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("not a URL");
  }
  if (allowPrivate) {
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("URL must be http(s)");
    return;
  }
  if (url.protocol !== "https:") throw new Error("URL must be https");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  for (const address of addresses) {
    const range = ipaddr.process(address).range();
    if (range !== "unicast") throw new Error(`URL resolves to a ${range} address`);
  }
}
