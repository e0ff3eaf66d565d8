/**
 * GET /metrics on the running server: open in sandbox, the Prometheus
 * text format read back by a parser, an API answer counted under its contract's route template
 * (never the raw path with its id); and the console's Overview lists the operations incidents.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { BASE_URL, call, newCustomer } from "../support";
import { consoleCookie } from "../support/console";

describe("GET /metrics", () => {
  test("counts an API answer by route template and status, among the database's families", async () => {
    const c = await newCustomer();
    const missing = await call("GET", "/v1/core/quotes/qte_metricsprobe000000000000", { token: c.token });
    assert.ok(missing.status === 404 || missing.status === 400, missing.text);
    const res = await fetch(`${BASE_URL}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(!text.includes("qte_metricsprobe"), "no raw path with an id in a label");
    const families = parsePrometheusTextFormat(text);
    const requests = families.find((f) => f.name === "remit_http_requests_total");
    const counted = requests?.metrics.find(
      (m) => m.labels?.route === "/v1/core/quotes/{quoteId}" && m.labels?.status === String(missing.status) && m.labels?.method === "GET",
    );
    assert.ok(Number(counted?.value) >= 1, "the refusal is counted under its route template");
    for (const name of ["remit_http_request_duration_seconds", "remit_jobs", "remit_email_failures", "remit_claims_overdue", "remit_db_pool_max"])
      assert.ok(
        families.some((f) => f.name === name),
        name,
      );
  });

  test("the console's Overview lists the operations incidents", async () => {
    const res = await fetch(`${BASE_URL}/console`, { headers: { cookie: await consoleCookie() } });
    assert.equal(res.status, 200);
    assert.match((await res.text()).replace(/<!-- -->/g, ""), /Operations incidents \(\d+ open\)/);
  });
});
