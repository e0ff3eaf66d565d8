/**
 * `node --import tsx test/support/pglite-migrate.ts <dir>`: initialises a PGlite directory and
 * applies every migration, as the app does at start (test/support/pglite-template.ts).
 */
async function main(dir: string) {
  process.env.PGLITE_DIR = dir;
  const { getDb, closeDb } = await import("@/db");
  await getDb();
  await closeDb();
}

main(process.argv[2]).catch((err) => {
  console.error(err);
  process.exit(1);
});
