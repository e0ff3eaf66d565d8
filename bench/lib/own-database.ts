import postgres from "postgres";

/**
 * Runs `work` on a PostgreSQL database of its own (remit_bench_<part>_<ms>), created on the server
 * of BENCH_DATABASE_URL (or TEST_DATABASE_URL) and dropped after (kept with BENCH_KEEP=1).
 * DATABASE_URL names it before `work` runs, so the app's modules `work` imports open it.
 */
export async function inOwnDatabase(part: string, work: (url: string) => Promise<void>): Promise<void> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error("BENCH_DATABASE_URL (or TEST_DATABASE_URL) is needed");
  const name = `remit_bench_${part}_${Date.now()}`;
  const root = postgres(admin, { max: 1, onnotice: () => {} });
  await root.unsafe(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  try {
    await work(url.toString());
  } finally {
    if (process.env.BENCH_KEEP) console.error(`kept ${name}`);
    else await root.unsafe(`drop database if exists ${name} with (force)`);
    await root.end();
  }
}
