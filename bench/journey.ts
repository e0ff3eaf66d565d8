/**
 * Journey benchmark (issue 5): N concurrent partner clients each run quote, disclosure, accept,
 * submit, poll to validated, confirm, funding completion and poll to funded, for a fixed time,
 * against a production build (PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set).
 * Reports journeys/s, per-call p50/p99, server RSS, and the bare anchor route in the same run.
 */
import autocannon from "autocannon";
// @ts-expect-error: plain ESM helper shared with bench/auth.mjs
import { startServer } from "./server.mjs";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);

const latencies = new Map<string, number[]>();
function record(name: string, ms: number) {
  if (!latencies.has(name)) latencies.set(name, []);
  latencies.get(name)!.push(ms);
}
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export async function benchJourney(): Promise<string> {
  const server = await startServer({ FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0", WORKER_POLL_MS: "50" });
  process.env.BASE_URL = server.baseUrl;
  const demo = await import("../scripts/demo");
  const KEY = "sandbox-demo-key";
  async function timed(name: string, method: string, path: string, token: string, body?: unknown, expect = 200) {
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        "ocp-apim-subscription-key": KEY,
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(method === "POST" && path.startsWith("/v1/core") ? { "idempotency-key": crypto.randomUUID() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    record(name, performance.now() - started);
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
  try {
    const log = console.log;
    console.log = () => {};
    const clients = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      const { token } = await demo.registerAndOnboard();
      const device = await demo.registerDevice(token);
      const ben = await timed(
        "setup",
        "POST",
        "/v1/core/beneficiaries",
        token,
        {
          firstName: "Lucía",
          lastName: "Hernández",
          dateOfBirth: "1991-06-21",
          nationality: "MEX",
          countryOfResidence: "MEX",
          relationshipToCustomer: "FAMILY",
        },
        202,
      );
      for (;;) {
        const b = await timed("setup", "GET", `/v1/core/beneficiaries/${ben.beneficiaryId}`, token);
        if (b.state === "VALID") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      clients.push({ token, device, beneficiaryId: ben.beneficiaryId as string });
    }
    console.log = log;
    latencies.clear();

    const anchor = await new Promise<autocannon.Result>((resolve, reject) =>
      autocannon({ url: `${server.baseUrl}/v1/sandbox/bench-anchor`, duration: 5, connections: 10 }, (err, res) => (err ? reject(err) : resolve(res))),
    );

    let journeys = 0;
    const until = Date.now() + SECONDS * 1000;
    const started = performance.now();
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rss() ?? 0)), 1000);
    async function poll(token: string, id: string, state: string) {
      for (;;) {
        const t = await timed("GET transfer (poll)", "GET", `/v1/core/transfers/${id}`, token);
        if (t.transferStatus === state) return t;
        if (["rejected", "expired", "onreview"].includes(t.transferStatus)) throw new Error(`transfer ${t.transferStatus}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    await Promise.all(
      clients.map(async (c) => {
        while (Date.now() < until) {
          const quote = await timed("POST quotes", "POST", "/v1/core/quotes", c.token, {
            originAmount: "100.000000",
            originCurrency: "USD",
            destinationCurrency: "MXN",
            beneficiaryId: c.beneficiaryId,
          });
          const disclosure = await timed("GET disclosure", "GET", `/v1/core/quotes/${quote.quoteId}/disclosure`, c.token);
          const accepted = await timed(
            "POST accept",
            "POST",
            `/v1/core/quotes/${quote.quoteId}/accept`,
            c.token,
            { disclosureToken: disclosure.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
            201,
          );
          await timed(
            "POST submit",
            "POST",
            `/v1/core/transfers/${accepted.transferId}/submit`,
            c.token,
            {
              beneficiaryId: c.beneficiaryId,
              payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: "002010077777777771" },
              purposeOfTransfer: "FAMILY_SUPPORT",
            },
            202,
          );
          const validated = await poll(c.token, accepted.transferId, "validated");
          const confirmed = await timed("POST confirm", "POST", `/v1/core/transfers/${accepted.transferId}/confirm`, c.token, {
            deviceAssertion: await demo.deviceAssertion(c.device, validated),
          });
          await timed(
            "POST funding complete (sandbox)",
            "POST",
            `/v1/sandbox/funding-sessions/${confirmed.fundingSession.fundingSessionId}/complete`,
            c.token,
            { outcome: "SUCCEEDED" },
          );
          await poll(c.token, accepted.transferId, "funded");
          journeys++;
        }
      }),
    );
    clearInterval(sampler);
    const elapsed = (performance.now() - started) / 1000;
    const rows = [...latencies.entries()].map(([name, v]) => `| ${name} | ${v.length} | ${pct(v, 50).toFixed(1)} | ${pct(v, 99).toFixed(1)} |`);
    return [
      `Journeys, ${server.database}, ${CONCURRENCY} concurrent clients for ${SECONDS} s (fast-check and screening delays 0):`,
      "",
      `- **${(journeys / elapsed).toFixed(1)} journeys/s** (${journeys} journeys in ${elapsed.toFixed(1)} s)`,
      `- peak server RSS: ${peakRss} MB`,
      `- bare anchor (route handler + one primary-key select), 10 connections: ${Math.round(anchor.requests.average)} req/s, p50 ${anchor.latency.p50} ms, p99 ${anchor.latency.p99} ms`,
      "",
      "| Call | Count | p50 ms | p99 ms |",
      "|---|---|---|---|",
      ...rows,
    ].join("\n");
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  benchJourney().then(console.log, (e) => {
    console.error(e);
    process.exit(1);
  });
