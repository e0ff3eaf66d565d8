/**
 * Issue 20 item 10: the command-line imports (statements, payment status, sanctions lists) write
 * the audit log as the console's uploads do, with the actor `cli:<OS user>`. Each script runs as
 * the operator would run it, on this test's database (PGlite: closed meanwhile, one process at a
 * time), then the audit rows are read.
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
import { freshDb } from "../../support/db";
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

/** The shipped OFAC SDN list's first three entries with their aliases and addresses, plus one of this run's own (a new version in a shared database). */
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

before(async () => {
  // Migrated and seeded once, then released: PGlite serves one process at a time.
  ({ close } = await freshDb());
  await close();
  const statement = path.join(dir, "statement.xml");
  writeFileSync(
    statement,
    camt053([{ bankReference: `CLI-${tag}`, amount: "10.00", currency: "USD", text: "no reference" }], { messageId: `CLI-STMT-${tag}` }),
  );
  assert.match(await run("statements-import.ts", [statement]), /1 credits, 0 matched, 1 to the Bank credits queue/);
  const report = path.join(dir, `pain002-${tag}.xml`);
  writeFileSync(report, pain002(`CLI-PSR-${tag}`, "PAYOUT-UNKNOWN", [{ endToEndId: "trf_unknown", status: "ACSC" }]));
  assert.match(await run("payment-status-import.ts", [report]), /1 transactions, 0 applied, 1 unmatched/);
  assert.match(await run("sanctions-import.ts", [tinyList()]), /stored as a new version/);
  ({ db, close } = await freshDbAgain());
});
after(() => close());

/** The same database again (freshDb's settings are kept in process.env). */
async function freshDbAgain() {
  const { getDb, closeDb } = await import("@/db");
  return { db: await getDb(), close: closeDb };
}

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

test("npm run sanctions:import: a sanctionsList.import entry naming the new version, actor cli:<user>", async () => {
  const rows = (await entriesBy("sanctionsList.import")).filter((r) => JSON.stringify(r.after).includes(tag));
  assert.equal(rows.length, 1, JSON.stringify(rows));
  const [row] = rows;
  assert.equal(row.targetType, "sanctionsListVersion");
  assert.match(row.targetId, /^slv/);
  assert.equal(row.after?.created, true);
  assert.equal(row.after?.list, "ofac-sdn");
  assert.equal(row.after?.entryCount, 4);
});
