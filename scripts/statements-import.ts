/**
 * npm run statements:import -- <camt.053 file>...: imports bank statements into the configured
 * database exactly as the console's upload does (lib/payments/reconciliation: validated against the shipped
 * camt.053.001.08 XSD, one transaction per file). Importing a file twice changes nothing: every
 * credit already imported (same AcctSvcrRef) counts as a duplicate.
 */
import "@/lib/platform/config/exit-on-refusal"; // first: a refused configuration ends the script here
import { readFile } from "node:fs/promises";
import path from "node:path";
import { closeDb } from "@/db";
import { DomainError } from "@/lib/platform/errors";
import { cliActor } from "@/lib/operations/operators/audit";
import { installStartSteps } from "@/lib/operations/runtime/start-steps";
import { ready } from "@/lib/platform/ready";
import { runUnit } from "@/lib/platform/unit-of-work";
import { readCamt053 } from "@/lib/payments/reconciliation/camt";
import { importStatement } from "@/lib/payments/reconciliation/import";

function describe(err: unknown): string {
  if (!(err instanceof DomainError)) return err instanceof Error ? err.message : String(err);
  const problems = (err.details?.problems as { line: number | null; message: string }[] | undefined) ?? [];
  return [err.message, ...problems.map((p) => `  ${p.line ? `line ${p.line}: ` : ""}${p.message}`)].join("\n");
}

async function importFile(file: string): Promise<boolean> {
  try {
    const statement = await readCamt053(await readFile(file, "utf8"));
    const done = await runUnit(
      async ({ tx, now, audit }) => {
        const report = await importStatement(tx, statement, now);
        // Who did it: the console upload's audit entry, actor cli:<user>.
        const entry = { action: "bankStatement.import", targetType: "bankStatement", targetId: statement.messageId || "(no MsgId)" };
        audit.record({ ...entry, after: { ...report, file: path.basename(file) } });
        return report;
      },
      { context: { script: "statements:import", file }, actor: { kind: "system", operator: cliActor() }, db: ready },
    );
    if (!done.ok) throw done.error;
    const r = done.value;
    console.log(`${file}: ${r.entries} credits, ${r.matched} matched, ${r.unmatched} to the Bank credits queue, ${r.duplicates} already imported`);
    return true;
  } catch (err) {
    console.error(`${file}: not imported: ${describe(err)}`);
    return false;
  }
}

async function main(files: string[]): Promise<void> {
  if (files.length === 0) {
    console.error("usage: npm run statements:import -- <camt.053.001.08 file>...");
    process.exitCode = 2;
    return;
  }
  installStartSteps();
  try {
    for (const file of files) if (!(await importFile(file))) process.exitCode = 1;
  } finally {
    await closeDb();
  }
}

void main(process.argv.slice(2));
