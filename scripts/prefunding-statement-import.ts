/**
 * npm run prefunding-statement:import -- PROVIDER FILE...: imports a payout provider's balance
 * statements (the aggregator's statement file) into the configured database through the console's
 * command (prefundingStatement.import, audited as cli:<user>): each currency set against our
 * prefunding account at the statement's time. Importing a statement again changes nothing.
 */
import "@/lib/platform/config/exit-on-refusal"; // first: a refused configuration ends the script here
import { readFile } from "node:fs/promises";
import path from "node:path";
import { closeDb } from "@/db";
import { importPrefundingStatementCommand } from "@/lib/operations/commands/payouts";
import { actedNotice, runCommand } from "@/lib/operations/commands/run";
import { cliActor } from "@/lib/operations/operators/audit";
import { installStartSteps } from "@/lib/operations/runtime/start-steps";

async function main([provider, ...files]: string[]): Promise<void> {
  if (!provider || files.length === 0) {
    console.error("usage: npm run prefunding-statement:import -- <provider> <statement file>...");
    process.exitCode = 2;
    return;
  }
  installStartSteps();
  try {
    for (const file of files) {
      const text = await readFile(file, "utf8");
      const done = await runCommand(
        importPrefundingStatementCommand,
        { provider, name: path.basename(file), text },
        { operator: cliActor() },
        { context: { script: "prefunding-statement:import", file } },
      );
      if (!done.ok) {
        const issues = (done.error.details as { issues?: { field: string; message?: string }[] } | undefined)?.issues ?? [];
        console.error(`${file}: ${done.error.message}${issues.map((i) => ` ${i.field}: ${i.message ?? ""}`).join(";")}`);
        process.exitCode = 1;
        continue;
      }
      console.log(actedNotice(done.value));
    }
  } catch (err) {
    console.error(`prefunding-statement:import failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}

void main(process.argv.slice(2));
