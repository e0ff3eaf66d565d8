/**
 * `node --import tsx test/support/pglite-migrate.ts <dir>`: initialises a PGlite directory and
 * applies every migration, as the app does at start (test/support/pglite-template.ts); then stores
 * a sandbox quote-signing key, as the first start of a sandbox process does (its signingKeys start
 * step): generating the RSA key cost about 0.3 s of CPU in every database test file, and on
 * PostgreSQL the run's shared database holds one key for every file anyway.
 */
async function main(dir: string) {
  process.env.PGLITE_DIR = dir;
  const { getDb, closeDb } = await import("@/db");
  const { loadSigningKeys } = await import("@/lib/payments");
  await loadSigningKeys(await getDb());
  await closeDb();
}

main(process.argv[2]).catch((err) => {
  console.error(err);
  process.exit(1);
});
