/**
 * The write calls of the benchmarks in journey order (bench/calls.ts measures them, bench/profile.ts
 * profiles them): each call consumes prepared state, so each runs over a list of inputs made by the
 * step before, and the steps in between (disclosure, waiting for validated) are not measured.
 */
import { caller, deviceAssertion, pooled, quoteBody, submitBody, type Customer } from "./partner";

/** Runs `work` over `items` as one measured step named `route`; answers the outputs that succeeded. */
export type Measure = <I, O>(route: string, items: I[], work: (item: I) => Promise<O>) => Promise<Awaited<O>[]>;

/**
 * `between` measures the journey's calls between the writes too (bench/profile.ts): the disclosure
 * read before each accept, and the sandbox's funding completion after each confirm; without it the
 * disclosures are fetched unmeasured and no funding is completed (bench/calls.ts).
 */
export async function runWrites(baseUrl: string, customers: Customer[], n: number, measure: Measure, between?: Measure): Promise<void> {
  const call = caller(baseUrl);
  const who = (i: number) => customers[i % customers.length];
  const quotes = await measure(
    "POST /v1/core/quotes (RS256-signed)",
    Array.from({ length: n }, (_, i) => who(i)),
    async (c) => ({ c, quote: await call("POST", "/v1/core/quotes", c.token, quoteBody(c)) }),
  );
  const disclose = async (q: (typeof quotes)[number]) => ({
    ...q,
    disclosure: await call("GET", `/v1/core/quotes/${q.quote.quoteId}/disclosure`, q.c.token),
  });
  const disclosed = between ? await between("GET /v1/core/quotes/{id}/disclosure", quotes, disclose) : await pooled(quotes, 10, disclose);
  const transfers = await measure("POST /v1/core/quotes/{id}/accept", disclosed, async (q) => ({
    c: q.c,
    transferId: (
      await call(
        "POST",
        `/v1/core/quotes/${q.quote.quoteId}/accept`,
        q.c.token,
        { disclosureToken: q.disclosure.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
        201,
      )
    ).transferId as string,
  }));
  const half = Math.floor(transfers.length / 2);
  const submitted = await measure("POST /v1/core/transfers/{id}/submit", transfers.slice(0, half), async (t) => {
    await call("POST", `/v1/core/transfers/${t.transferId}/submit`, t.c.token, submitBody(t.c), 202);
    return t;
  });
  await measure("POST /v1/core/transfers/{id}/cancel", transfers.slice(half), (t) =>
    call("POST", `/v1/core/transfers/${t.transferId}/cancel`, t.c.token, { cancellationReason: "CUSTOMER_REQUEST" }),
  );
  const validated = await pooled(submitted, 10, async (t) => {
    for (;;) {
      const detail = await call("GET", `/v1/core/transfers/${t.transferId}`, t.c.token);
      if (detail.transferStatus === "validated") return { ...t, assertion: await deviceAssertion(t.c, detail) };
      if (detail.transferStatus !== "registered") throw new Error(`transfer ${detail.transferStatus}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  const confirmed = await measure("POST /v1/core/transfers/{id}/confirm", validated, async (t) => ({
    ...t,
    fundingSessionId: (await call("POST", `/v1/core/transfers/${t.transferId}/confirm`, t.c.token, { deviceAssertion: t.assertion })).fundingSession
      ?.fundingSessionId as string,
  }));
  if (between)
    await between("POST /v1/sandbox/funding-sessions/{id}/complete", confirmed, (t) =>
      call("POST", `/v1/sandbox/funding-sessions/${t.fundingSessionId}/complete`, t.c.token, { outcome: "SUCCEEDED" }),
    );
}
