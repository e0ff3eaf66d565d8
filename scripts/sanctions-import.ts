/**
 * npm run sanctions:import -- <file-or-url-or-directory>...: stores sanctions list publications as
 * new list versions in the configured database, which then rescreens every active customer and
 * beneficiary. The format is recognised by the file names (OFAC SDN: sdn.csv alt.csv add.csv;
 * OFAC consolidated: cons_prim.csv cons_alt.csv cons_add.csv; UN: consolidated.xml); a directory
 * stands for the list files in it, and each directory is its own publication. Importing the same
 * files again is a no-op (a version is keyed by the files' content hash).
 */
import "@/lib/platform/config/exit-on-refusal"; // first: a refused configuration ends the script here
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { closeDb, getDb } from "@/db";
import { clock } from "@/lib/platform/clock";
import { cliActor } from "@/lib/operations/operators/audit";
import { inUnit } from "@/lib/platform/unit-of-work";
import { importPublication, type ImportReport } from "@/lib/compliance/screening/list-store";
import { LIST_FORMATS } from "@/lib/compliance/screening/sources";

const LIST_FILES = new Set(Object.values(LIST_FORMATS).flatMap((f) => f.files));

/** A directory as the list files in it; a file or URL as itself. */
async function expand(arg: string): Promise<{ directory: boolean; sources: string[] }> {
  if (/^https?:\/\//i.test(arg)) return { directory: false, sources: [arg] };
  if (!(await stat(arg)).isDirectory()) return { directory: false, sources: [arg] };
  const names = (await readdir(arg)).filter((n) => LIST_FILES.has(n.toLowerCase())).sort();
  return { directory: true, sources: names.map((n) => path.join(arg, n)) };
}

/** One publication per directory; the loose files and URLs together form one more. */
async function publications(args: string[]): Promise<string[][]> {
  const expanded = await Promise.all(args.map(expand));
  const loose = expanded.filter((e) => !e.directory).flatMap((e) => e.sources);
  return [...expanded.filter((e) => e.directory).map((e) => e.sources), ...(loose.length ? [loose] : [])];
}

const PLURAL: Record<string, string> = { individual: "individuals", entity: "entities", vessel: "vessels", aircraft: "aircraft" };

function describe(report: ImportReport): string {
  const kinds = report.kinds
    ? ` (${Object.entries(report.kinds)
        .map(([kind, n]) => `${n} ${PLURAL[kind] ?? kind}`)
        .join(", ")})`
    : "";
  const verb = report.created ? "stored as a new version" : "already stored (same content)";
  return `${report.list}: ${report.entryCount} entries${kinds}, ${report.aliasCount} aliases; ${verb} ${report.versionId}`;
}

async function main(args: string[]): Promise<void> {
  if (args.length === 0) {
    console.error(
      "usage: npm run sanctions:import -- <file-or-url-or-directory>... (OFAC SDN: sdn.csv alt.csv add.csv; OFAC consolidated: cons_prim.csv cons_alt.csv cons_add.csv; UN: consolidated.xml)",
    );
    process.exitCode = 2;
    return;
  }
  try {
    const db = await getDb();
    for (const sources of await publications(args)) {
      const report = await importPublication(db, sources, clock.now());
      console.log(describe(report));
      // Who did it, actor cli:<user>: the version commits in lib/compliance/screening's own
      // transaction, so its entry follows in the next one (an unchanged list is recorded too).
      const audit = { action: "sanctionsList.import", targetType: "sanctionsListVersion", targetId: report.versionId, after: { ...report, sources } };
      await inUnit(async (unit) => unit.audit.record(audit), {
        db,
        actor: { kind: "system", operator: cliActor() },
        context: { script: "sanctions:import" },
      });
    }
  } catch (err) {
    console.error(`sanctions:import failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}

void main(process.argv.slice(2));
