/**
 * npm run sanctions:import -- <file-or-url>...: stores one sanctions list publication as a new list
 * version (OFAC SDN: sdn.csv alt.csv add.csv; a directory stands for its files) in the configured
 * database, which then rescreens every active customer and beneficiary. Importing the same files
 * again is a no-op (a version is keyed by the files' content hash).
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { closeDb, getDb } from "@/db";
import { clock } from "@/lib/clock";
import { cliActor, recordAudit } from "@/lib/operators/audit";
import { importPublication } from "@/lib/screening/list-store";
import { LIST_FORMATS } from "@/lib/screening/sources";

async function expand(arg: string): Promise<string[]> {
  if (/^https?:\/\//i.test(arg)) return [arg];
  const info = await stat(arg);
  if (!info.isDirectory()) return [arg];
  const format = Object.values(LIST_FORMATS)[0];
  return format.files.map((f) => path.join(arg, f));
}

async function main(args: string[]): Promise<void> {
  if (args.length === 0) {
    console.error("usage: npm run sanctions:import -- <file-or-url>... (OFAC SDN: sdn.csv alt.csv add.csv, or their directory)");
    process.exitCode = 2;
    return;
  }
  try {
    const sources = (await Promise.all(args.map(expand))).flat();
    const report = await importPublication(await getDb(), sources, clock.now());
    const verb = report.created ? "stored as a new version" : "already stored (same content)";
    console.log(`${report.list}: ${report.entryCount} entries, ${report.aliasCount} aliases; ${verb} ${report.versionId}`);
    // Who did it (issue 20 item 10), actor cli:<user>: the version commits in lib/screening's own
    // transaction, so its entry follows in the next one (an unchanged list is recorded too).
    const audit = { action: "sanctionsList.import", targetType: "sanctionsListVersion", targetId: report.versionId, after: { ...report, sources } };
    await (await getDb()).transaction((tx) => recordAudit(tx, cliActor(), audit, clock.now()));
  } catch (err) {
    console.error(`sanctions:import failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}

void main(process.argv.slice(2));
