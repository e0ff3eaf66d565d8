// Auth API benchmark: GET /v1/auth/health and the login pair (start + login) with
// autocannon against a production build. Prints a Markdown table; bench/run.mjs writes it down.
import autocannon from "autocannon";
import { adminUrl, startServer } from "./server.mjs";
import { startBareApp } from "./lib/bare-app.mjs";

const KEY = "sandbox-demo-key";
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

function run(opts) {
  return new Promise((resolve, reject) => autocannon({ duration: DURATION, connections: 10, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));
}

async function registerCustomer(baseUrl, email, password) {
  const post = (p, body) =>
    fetch(`${baseUrl}${p}`, {
      method: "POST",
      headers: { "ocp-apim-subscription-key": KEY, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const start = await post("/v1/auth/register/start", { identifier: email });
  const { otp } = await fetch(`${baseUrl}/v1/sandbox/otp?identifier=${encodeURIComponent(email)}`, { headers: { "ocp-apim-subscription-key": KEY } }).then(
    (r) => r.json(),
  );
  await post("/v1/auth/register/verify-otp", { registrationId: start.registrationId, otp });
  await post("/v1/auth/register/set-password", { registrationId: start.registrationId, password });
}

export async function benchAuth() {
  const server = await startServer();
  try {
    const password = "correct horse battery staple";
    const emails = Array.from({ length: 10 }, (_, i) => `bench${i}.${Date.now()}@example.com`);
    for (const email of emails) await registerCustomer(server.baseUrl, email, password);
    const bare = await startBareApp(adminUrl());
    const anchor = await run({ url: bare.readUrl }).finally(() => bare.stop());
    const health = await run({ url: `${server.baseUrl}/v1/auth/health`, headers: { "ocp-apim-subscription-key": KEY } });
    let n = 0;
    const login = await run({
      url: server.baseUrl,
      headers: { "ocp-apim-subscription-key": KEY, "content-type": "application/json" },
      requests: [
        {
          method: "POST",
          path: "/v1/auth/start",
          setupRequest: (req, context) => {
            context.email = emails[n++ % emails.length];
            return { ...req, body: JSON.stringify({ identifier: context.email }) };
          },
          onResponse: (status, body, context) => {
            context.loginAttemptId = JSON.parse(body).loginAttemptId;
          },
        },
        {
          method: "POST",
          path: "/v1/auth/login",
          setupRequest: (req, context) => ({ ...req, body: JSON.stringify({ loginAttemptId: context.loginAttemptId, password }) }),
        },
      ],
    });
    const row = (name, r) => `| ${name} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`;
    return [
      `Auth API, ${server.database}, ${DURATION} s per run, 10 connections:`,
      "",
      "| Call | Requests/s | p50 ms | p99 ms | non-2xx |",
      "|---|---|---|---|---|",
      row("bare app: GET /v1/db/read (bench/bare-app, one prepared PK select)", anchor),
      row("GET /v1/auth/health", health),
      row("POST /v1/auth/start + /v1/auth/login (pairs counted as 2 requests)", login),
      "",
      `Server RSS after the runs: ${server.rss()} MB.`,
    ].join("\n");
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  benchAuth().then(console.log, (e) => {
    console.error(e);
    process.exit(1);
  });
