import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { postWebhook } from "@/lib/partners/webhooks/http-post";
import { assertDeliverableUrl, nonPublicReason, pinnedLookup, type Resolver } from "@/lib/partners/webhooks/url-policy";

describe("webhook URL policy: every address form", () => {
  const refused = [
    // IPv4 special ranges
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "198.18.0.1",
    // IPv6 special ranges
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "2001:db8::1",
    // IPv6 forms embedding an IPv4 address
    "::7f00:1", // IPv4-compatible 127.0.0.1
    "::a9fe:a9fe", // IPv4-compatible 169.254.169.254
    "::ffff:127.0.0.1", // IPv4-mapped
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:0:7f00:1", // IPv4-translated (RFC 6145)
    "64:ff9b::7f00:1", // well-known NAT64 prefix
    "64:ff9b::808:808", // NAT64 even of a public address: a translator we do not control
    "64:ff9b:1::a9fe:a9fe", // local-use NAT64 (RFC 8215)
    "2002:7f00:1::1", // 6to4
    "2001::1", // Teredo
    "100::1", // discard
    "5f00::1",
  ];
  for (const address of refused) {
    it(`refuses ${address}`, () => assert.notEqual(nonPublicReason(address), null));
  }
  for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:81b::200e", "::ffff:8.8.8.8"]) {
    it(`accepts public ${address}`, () => assert.equal(nonPublicReason(address), null));
  }

  it("refuses literal IPv6 URLs in every form, without resolving anything", async () => {
    const never: Resolver = async () => assert.fail("a literal address must not be resolved");
    for (const url of [
      "https://[::7f00:1]/h",
      "https://[::a9fe:a9fe]/h",
      "https://[::ffff:127.0.0.1]/h",
      "https://[64:ff9b::a9fe:a9fe]/h",
      "https://[0:0:0:0:0:ffff:7f00:1]/h",
    ]) {
      await assert.rejects(assertDeliverableUrl(url, false, never), /URL resolves to/, url);
    }
    // Decimal, octal and hex IPv4 spellings are normalised by the URL parser, then refused.
    for (const url of ["https://2130706433/h", "https://0177.0.0.1/h", "https://0x7f.1/h"]) {
      await assert.rejects(assertDeliverableUrl(url, false, never), /loopback/, url);
    }
    await assert.rejects(assertDeliverableUrl("http://93.184.216.34/h", false, never), /https/);
    await assertDeliverableUrl("https://93.184.216.34/h", false, never);
  });

  it("refuses a name when any of its addresses is not public", async () => {
    const resolve: Resolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "::7f00:1", family: 6 },
    ];
    await assert.rejects(assertDeliverableUrl("https://partner.example/h", false, resolve), /non-global IPv6/);
  });
});

describe("webhook connections: the name is resolved once and the checked address is the one used", () => {
  let server: Server;
  let port: number;
  let hits = 0;
  before(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** A rebinding DNS: the first answer is `first`, every later one `then`. */
  function rebinding(first: string, then: string) {
    const calls: string[] = [];
    const resolve: Resolver = async (host) => {
      calls.push(host);
      const address = calls.length === 1 ? first : then;
      return [{ address, family: address.includes(":") ? 6 : 4 } satisfies LookupAddress];
    };
    return { resolve, calls };
  }

  const send = (url: string, allowPrivate: boolean, resolve: Resolver) =>
    postWebhook(url, { headers: { "content-type": "application/json" }, body: "{}", allowPrivate, timeoutMs: 3000, maxBodyBytes: 1024, resolve });

  it("connects to the first (only) answer even when the name would resolve elsewhere next", async () => {
    // 10.255.255.1 is unroutable here: a second resolution would make the POST fail or hang.
    const dns = rebinding("127.0.0.1", "10.255.255.1");
    const before = hits;
    const res = await send(`http://rebind.test:${port}/h`, true, dns.resolve);
    assert.equal(res.status, 204);
    assert.equal(hits, before + 1);
    assert.deepEqual(dns.calls, ["rebind.test"], "resolved exactly once");
  });

  it("refuses at connection time when the name resolves to a non-public address (no request sent)", async () => {
    for (const address of ["127.0.0.1", "::ffff:127.0.0.1", "::7f00:1"]) {
      const dns = rebinding(address, address);
      const before = hits;
      await assert.rejects(send(`https://rebind.test:${port}/h`, false, dns.resolve), (err: Error) => {
        const text = `${err.message} ${(err.cause as Error | undefined)?.message ?? ""}`;
        assert.match(text, /URL resolves to/);
        return true;
      });
      assert.equal(hits, before, `nothing reached the local server via ${address}`);
    }
  });

  it("pinnedLookup answers both the single-address and the all-addresses form", async () => {
    const resolve: Resolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "2606:4700:4700::1111", family: 6 },
    ];
    const lookup = pinnedLookup(false, resolve);
    const one = await new Promise<[string | LookupAddress[], number | undefined]>((res, rej) => lookup("x.test", {}, (e, a, f) => (e ? rej(e) : res([a, f]))));
    assert.deepEqual(one, ["93.184.216.34", 4]);
    const all = await new Promise((res, rej) => lookup("x.test", { all: true }, (e, a) => (e ? rej(e) : res(a))));
    assert.equal((all as LookupAddress[]).length, 2);
  });
});
