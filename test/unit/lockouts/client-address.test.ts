/** The client address of per-address throttles, from X-Forwarded-For (docs/decisions.md, throttles). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { UNKNOWN_ADDRESS, clientAddressFrom } from "@/lib/identity/lockouts/client-address";

test("no proxy: the rightmost entry, which next start fills with the socket address", () => {
  assert.equal(clientAddressFrom("127.0.0.1", 0), "127.0.0.1");
  assert.equal(clientAddressFrom("::ffff:10.1.2.3", 0), "10.1.2.3");
  assert.equal(clientAddressFrom("198.51.100.1, 203.0.113.9", 0), "203.0.113.9");
});

test("n trusted proxies: the n-th entry from the right; what the client wrote left of it is ignored", () => {
  const header = "1.1.1.1, 203.0.113.9, 10.0.0.2";
  assert.equal(clientAddressFrom(header, 1), "10.0.0.2");
  assert.equal(clientAddressFrom(header, 2), "203.0.113.9");
  // Fewer entries than hops (a request that bypassed a proxy): the leftmost one.
  assert.equal(clientAddressFrom("203.0.113.9", 3), "203.0.113.9");
});

test("IPv6 counts per /64; ports and brackets are dropped", () => {
  assert.equal(clientAddressFrom("2001:db8:1:2:aaaa::1", 0), "2001:db8:1:2::/64");
  assert.equal(clientAddressFrom("[2001:db8:1:2:bbbb::7]:4711", 0), "2001:db8:1:2::/64");
  assert.equal(clientAddressFrom("203.0.113.9:4711", 0), "203.0.113.9");
});

test("missing or unreadable: one shared bucket", () => {
  for (const header of [null, undefined, "", " , ", "not-an-address", "999.1.1.1"]) assert.equal(clientAddressFrom(header, 0), UNKNOWN_ADDRESS);
});
