/**
 * The command-line imports (statements, payment status, sanctions lists) write
 * the audit log as the console's uploads do, with the actor `cli:<OS user>`. Each script runs as
 * the operator would run it, opening and migrating this test's database itself; then this process
 * reads the audit rows.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog } from "@/db/schema";
import { camt053 } from "../../support/camt053";
import { pain002 } from "../../support/iso20022";

const actor = `cli:${userInfo().username}`;
const dir = mkdtempSync(path.join(tmpdir(), "cli-audit-"));
const tag = path.basename(dir);
let db: Db;
let close: () => Promise<void>;

function run(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["--import", "tsx", `scripts/${script}`, ...args], { env: { ...process.env, LOG_LEVEL: "silent" } }, (err, stdout, stderr) =>
      err ? reject(new Error(`${script}: ${err.message}\n${stdout}${stderr}`)) : resolve(stdout),
    ),
  );
}

/** The shipped OFAC SDN list's first three entries with their aliases and addresses, plus one of this run's own. */
function tinyList(): string {
  const list = path.join(dir, "sdn");
  mkdirSync(list);
  const shipped = (name: string) => readFileSync(path.join(process.cwd(), "data", "sanctions", "ofac-sdn", name), "latin1").split("\r\n");
  const sdn = shipped("sdn.csv").slice(0, 3);
  const ids = new Set(sdn.map((line) => line.split(",")[0]));
  sdn.push(`99999001,"ZZCLI, ${tag}","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `);
  writeFileSync(path.join(list, "sdn.csv"), `${sdn.join("\r\n")}\r\n`, "latin1");
  for (const name of ["alt.csv", "add.csv"]) {
    const rows = shipped(name).filter((line) => ids.has(line.split(",")[0]));
    writeFileSync(path.join(list, name), `${rows.join("\r\n")}\r\n`, "latin1");
  }
  return list;
}

// PGlite: this test's own directory, so a list of its own (cheap to import). PostgreSQL: the
// database all db tests share, so the shipped list, which the service loads into it at start
// anyway (a list of our own would become the one every later test screens against).
const shared = !!process.env.TEST_DB_URL;
let listSource = "";

before(async () => {
  // The scripts open (and migrate) the database themselves, as in production; this process reads
  // it afterwards (PGlite: one process at a time).
  process.env.LOG_LEVEL ??= "silent";
  if (shared) process.env.DATABASE_URL = process.env.TEST_DB_URL;
  else process.env.PGLITE_DIR = path.join(dir, "pglite");
  listSource = shared ? path.join(process.cwd(), "data", "sanctions", "ofac-sdn") : tinyList();
  const statement = path.join(dir, "statement.xml");
  writeFileSync(
    statement,
    camt053([{ bankReference: `CLI-${tag}`, amount: "10.00", currency: "USD", text: "no reference" }], { messageId: `CLI-STMT-${tag}` }),
  );
  const report = path.join(dir, `pain002-${tag}.xml`);
  writeFileSync(report, pain002(`CLI-PSR-${tag}`, "PAYOUT-UNKNOWN", [{ endToEndId: "trf_unknown", status: "ACSC" }]));
  const runs: [string, string[], RegExp][] = [
    ["statements-import.ts", [statement], /1 credits, 0 matched, 1 to the Bank credits queue/],
    // Each unmatched line named, with why.
    [
      "payment-status-import.ts",
      [report],
      /1 transactions, 0 applied, 1 unmatched, 0 duplicates\n {2}unmatched trf_unknown ACSC: no transfer in a payout file has this EndToEndId\n/,
    ],
    ["sanctions-import.ts", [listSource], shared ? /stored as a new version|already stored/ : /stored as a new version/],
  ];
  const check = async ([script, args, expected]: (typeof runs)[number]) => assert.match(await run(script, args), expected);
  // PostgreSQL takes the three at once (cheaper); a PGlite directory one process at a time.
  if (process.env.TEST_DB_URL) await Promise.all(runs.map(check));
  else for (const r of runs) await check(r);
  const { getDb, closeDb } = await import("@/db");
  db = await getDb();
  close = closeDb;
});
after(() => close());

const entriesBy = async (action: string) => (await db.select().from(auditLog).where(eq(auditLog.action, action))).filter((r) => r.operatorId === actor);

test("npm run statements:import: the console's bankStatement.import entry, actor cli:<user>", async () => {
  const [row, ...more] = (await entriesBy("bankStatement.import")).filter((r) => r.targetId === `CLI-STMT-${tag}`);
  assert.ok(row, "an audit entry");
  assert.equal(more.length, 0);
  assert.equal(row.operatorEmail, actor);
  assert.equal(row.targetType, "bankStatement");
  assert.equal(row.after?.entries, 1);
  assert.equal(row.after?.unmatched, 1);
  assert.equal(row.after?.file, "statement.xml");
});

test("npm run payment-status:import: the console's paymentStatusReport.import entry, actor cli:<user>", async () => {
  const [row] = (await entriesBy("paymentStatusReport.import")).filter((r) => r.targetId === `pain002-${tag}.xml`);
  assert.ok(row, "an audit entry");
  assert.equal(row.operatorEmail, actor);
  assert.equal(row.after?.transactions, 1);
  assert.equal(row.after?.unmatched, 1);
});

test("npm run sanctions:import: a sanctionsList.import entry naming the list version, actor cli:<user>", async () => {
  const rows = (await entriesBy("sanctionsList.import")).filter((r) => JSON.stringify(r.after).includes(listSource));
  assert.equal(rows.length, 1, JSON.stringify(rows));
  const [row] = rows;
  assert.equal(row.targetType, "sanctionsListVersion");
  assert.match(row.targetId, /^slv/);
  assert.equal(row.after?.list, "ofac-sdn");
  if (shared) assert.ok(Number(row.after?.entryCount) > 8000, "the shipped list");
  else {
    assert.equal(row.after?.created, true);
    assert.equal(row.after?.entryCount, 4);
  }
});
