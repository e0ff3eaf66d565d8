/**
 * Part of npm run bench (BENCH_ONLY=monitoring): what transaction monitoring adds to the fast-check
 * (at most 5 ms to its p99 on PostgreSQL with 100,000 transfers in the windows). A fresh
 * PostgreSQL database is seeded in SQL with BENCH_MONITORING_TRANSFERS transfers (default 100,000)
 * submitted over the last 7 days by 1,000 customers (about 14 each in any 24 h; each with an address
 * and an e-mail login of its own, so the lookups of customers sharing an identifier run), to
 * destinations shared by 20 customers each; then monitorTransfer (every aggregate of the live default pack and
 * its record) runs for BENCH_MONITORING_SAMPLES transfers (after BENCH_MONITORING_WARMUP untimed), each in its own transaction, timed
 * around the call. Prints one JSON line: the figures for docs/performance.md.
 */
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { inOwnDatabase } from "./lib/own-database";

const TOTAL = Number(process.env.BENCH_MONITORING_TRANSFERS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_MONITORING_SAMPLES ?? 1_000);
/**
 * Evaluations run before the timed ones (not timed): the first of a process pay once for V8
 * compiling the evaluation and for PostgreSQL planning its statement (a generic plan from the sixth
 * execution on), which a server pays at its first transfers, not at each.
 */
const WARMUP = Number(process.env.BENCH_MONITORING_WARMUP ?? 50);
const CUSTOMERS = Math.max(1, Math.min(1_000, Math.floor(TOTAL / 20)));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  await inOwnDatabase("monitoring", async (url) => {
    process.env.LOG_LEVEL ??= "silent";
    const { ready } = await import("@/lib/platform/ready");
    (await import("@/lib/operations/runtime/start-steps")).installStartSteps();
    const { closeDb } = await import("@/db");
    const { withinUnit } = await import("@/lib/platform/unit-of-work");
    const { monitorTransfer } = await import("@/lib/compliance/monitoring/evaluate");
    const { corridorByCode } = await import("@/lib/payments/corridors/corridors");
    const db = await ready();
    const seedStarted = performance.now();
    const seed = postgres(url, { max: 1, onnotice: () => {} });
    // Customers, one partner and subscription each, a beneficiary and payout method per transfer;
    // transfers i and i + 1 are different customers', so 20 consecutive ones share a destination key.
    await seed.unsafe(`
      insert into partners (id, name, monitoring_mode, created_at, updated_at) values ('bench_partner', 'Bench', 'enforce', now(), now());
      insert into customers (id, status, kyc_status, profile, address_key, created_at, updated_at)
        select 'bcus_' || c, 'VALID', 'COMPLETED', jsonb_build_object('residenceAddress', jsonb_build_object('addressLine1', c || ' Main St', 'postalCode', '787' || (c % 100))),
          'USA|787' || (c % 100) || '|' || c || ' MAIN ST', now() - interval '60 days', now()
        from generate_series(1, ${CUSTOMERS}) c;
      insert into subscriptions (id, partner_id, customer_id, created_at, updated_at)
        select 'bsub_' || c, 'bench_partner', 'bcus_' || c, now() - interval '60 days', now() from generate_series(1, ${CUSTOMERS}) c;
      insert into login_identifiers (id, partner_id, subscription_id, type, value, match_key, verified_at, created_at)
        select 'blid_' || c, 'bench_partner', 'bsub_' || c, 'EMAIL', 'c' || c || '@example.com', 'c' || c || '@example.com', now(), now() from generate_series(1, ${CUSTOMERS}) c;
      insert into beneficiaries (id, subscription_id, first_name, last_name, country_of_residence, relationship_to_customer, state, created_at, updated_at)
        select 'bben_' || i, 'bsub_' || (i % ${CUSTOMERS} + 1), 'Ana', 'Lopez', 'MX', 'FAMILY', 'VALID', now() - (i % 20) * interval '1 day', now()
        from generate_series(1, ${TOTAL}) i;
      insert into payout_methods (id, beneficiary_id, method_type, corridor, destination_identifier_encrypted, destination_identifier_masked, destination_key, added_at)
        select 'bpm_' || i, 'bben_' || i, 'BANK_TRANSFER', 'US-MX', 'x', '****', 'bkey_' || (i / 20), now() from generate_series(1, ${TOTAL}) i;
      insert into quotes (id, partner_id, subscription_id, beneficiary_id, pricing_mode, jti, quote_seq, corridor, corridor_data_version, payout_method, corridor_type,
          origin_amount, origin_currency, destination_amount, destination_currency, fx_rate, principal_fee, partner_fee, total_customer_cost, signed_quote, valid_until, accepted_at, created_at)
        select 'bquo_' || i, 'bench_partner', 'bsub_' || (i % ${CUSTOMERS} + 1), 'bben_' || i, 'SERVICE_PRICED', 'bjti_' || i, i, 'US-MX', 'bench', 'bank_account', 'bank_account',
          ((i * 37) % 1200 + 20) || '.000000', 'USD', '1.000000', 'MXN', '18.750000', '2.990000', '0.000000', '1.000000', 'bench', now(), now(), now()
        from generate_series(1, ${TOTAL}) i;
      insert into transfers (id, partner_id, subscription_id, customer_id, quote_id, beneficiary_id, state, state_changed_at,
          origin_amount, origin_currency, destination_amount, destination_currency, fx_rate, principal_fee, partner_fee, total_customer_cost,
          corridor, payout_method, purpose_of_transfer, payout_method_id, submitted_at, expires_at, created_at)
        select 'btrf_' || i, 'bench_partner', 'bsub_' || (i % ${CUSTOMERS} + 1), 'bcus_' || (i % ${CUSTOMERS} + 1), 'bquo_' || i, 'bben_' || i, 'validated', now(),
          ((i * 37) % 1200 + 20) || '.000000', 'USD', '1.000000', 'MXN', '18.750000', '2.990000', '0.000000', '1.000000',
          'US-MX', 'bank_account', 'FAMILY_SUPPORT', 'bpm_' || i, now() - ((i * 7919) % 604800) * interval '1 second', now() + interval '2 hours', now()
        from generate_series(1, ${TOTAL}) i;
    `);
    // As autovacuum leaves a table in service: statistics read and the visibility map set (a bulk
    // load leaves neither), then the load's dirty pages written, so no checkpoint runs in the samples.
    await seed.unsafe(`vacuum analyze`);
    await seed.unsafe(`checkpoint`);
    await seed.end();
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const corridor = corridorByCode("US-MX")!;
    const sqlRaw = (await import("drizzle-orm")).sql.raw;
    const rows = await db.execute<Record<string, unknown>>(
      sqlRaw(`select t.id, t.customer_id, t.beneficiary_id, t.origin_amount, b.created_at as ben_created, pm.destination_key
        from transfers t join beneficiaries b on b.id = t.beneficiary_id join payout_methods pm on pm.id = t.payout_method_id
        where t.id like 'btrf_%' order by md5(t.id) limit ${WARMUP + SAMPLES}`),
    );
    const { rowsOf } = await import("@/db");
    const samples = rowsOf<{
      id: string;
      customer_id: string;
      beneficiary_id: string;
      origin_amount: string;
      ben_created: string | Date;
      destination_key: string;
    }>(rows);
    const times: number[] = [];
    // A baseline on the same connection and load: one round trip (select 1) per sample.
    const baseline: number[] = [];
    const { sql } = await import("drizzle-orm");
    let held = 0;
    for (const [k, s] of samples.entries()) {
      const outcome = await withinUnit(
        async ({ tx, now }) => {
          const one = performance.now();
          await tx.execute(sql`select 1`);
          if (k >= WARMUP) baseline.push(performance.now() - one);
          const started = performance.now();
          const m = await monitorTransfer(
            tx,
            {
              id: s.id,
              partnerId: "bench_partner",
              customerId: s.customer_id,
              beneficiaryId: s.beneficiary_id,
              originAmount: s.origin_amount,
              originCurrency: "USD",
              corridor,
              customerStatus: "VALID",
              beneficiaryCreatedAt: new Date(s.ben_created),
              destinationKey: s.destination_key,
            },
            now,
          );
          if (k >= WARMUP) times.push(performance.now() - started);
          return m.outcome;
        },
        { db },
      );
      if (k >= WARMUP && outcome.ok && outcome.value !== "pass") held++;
    }
    times.sort((a, b) => a - b);
    baseline.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    console.log(
      JSON.stringify({
        transfers: TOTAL,
        customers: CUSTOMERS,
        samples: times.length,
        warmup: WARMUP,
        heldShare: round(held / Math.max(1, times.length)),
        p50: round(percentile(times, 50)),
        p99: round(percentile(times, 99)),
        max: round(times[times.length - 1]),
        roundTripP50: round(percentile(baseline, 50)),
        roundTripP99: round(percentile(baseline, 99)),
        seedSeconds: round(seedSeconds),
      }),
    );
    await closeDb();
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
