import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Fresh PGlite directories for tests, copied from a migrated template: initdb and every migration
 * cost about 4 s of CPU per database (most of a database-level test file's time), a copy a few
 * milliseconds. The template is keyed by the migrations, db/index.ts (PGlite's settings), the
 * script that builds it and PGlite's version, so a changed schema makes a new one; it is built once
 * by a child process (test/support/pglite-migrate.ts) and renamed into place, so no test ever
 * copies half of one.
 *
 * The copies go to memory (/dev/shm) where the machine has it, and are removed when the process
 * that made them exits: 42 MB written to disk per test file cost its kernel time (a tenth to a
 * fifth of a second of CPU per copy, and seconds of waiting on a busy disk), and the copies were
 * left behind (a unit run left 4 GB in the temp directory).
 */
const root = path.resolve(import.meta.dirname, "..", "..");

function templateKey(): string {
  const hash = createHash("sha256");
  const migrations = path.join(root, "db", "migrations");
  for (const entry of readdirSync(migrations, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    hash.update(path.relative(migrations, file)).update(readFileSync(file));
  }
  hash.update(readFileSync(path.join(root, "db", "index.ts")));
  hash.update(readFileSync(path.join(import.meta.dirname, "pglite-migrate.ts")));
  hash.update(readFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "package.json")));
  return hash.digest("hex").slice(0, 16);
}

function buildTemplate(template: string): void {
  const work = mkdtempSync(`${template}-building-`);
  try {
    const dir = path.join(work, "pglite");
    // The template always holds a generated signing key (none when the keys come from the configuration).
    const { DATABASE_URL: _ignored, SERVICE_SIGNING_KEYS: _configured, ...env } = process.env;
    execFileSync(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "pglite-migrate.ts"), dir], {
      cwd: root,
      env: { ...env, LOG_LEVEL: "silent" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    try {
      renameSync(dir, template);
    } catch (err) {
      // Another test process put its template there first: the same contents.
      if (!existsSync(path.join(template, "PG_VERSION"))) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Where the copies go: memory where the machine has it, else the temp directory. */
function copiesDir(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

const made: string[] = [];
process.once("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * A new PGlite directory holding a migrated database with a sandbox signing key (nothing else
 * seeded), removed when this process exits.
 */
export function freshPgliteDir(prefix = "remit-unit-"): string {
  const template = path.join(tmpdir(), `remit-pglite-template-${templateKey()}`);
  if (!existsSync(path.join(template, "PG_VERSION"))) buildTemplate(template);
  const dir = mkdtempSync(path.join(copiesDir(), prefix));
  made.push(dir);
  cpSync(template, dir, { recursive: true });
  return dir;
}
