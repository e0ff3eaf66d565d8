/**
 * npm run payment-status:import -- FILE...: imports pain.002 payment status reports from the
 * payout banks into the configured database, through the same domain function as the console
 * upload and the sandbox endpoint. Importing a report again changes nothing (duplicates).
 */
import "@/lib/platform/config/exit-on-refusal"; // first: a refused configuration ends the script here
import { readFile } from "node:fs/promises";
import path from "node:path";
import { closeDb } from "@/db";
import { cliActor } from "@/lib/operations/operators/audit";
import { importPaymentStatusReport } from "@/lib/payments/payouts/status-import";
import { installStartSteps } from "@/lib/operations/runtime/start-steps";
import { ready } from "@/lib/platform/ready";
import { runUnit } from "@/lib/platform/unit-of-work";

async function main(files: string[]): Promise<void> {
  if (files.length === 0) {
    console.error("usage: npm run payment-status:import -- <pain.002 file>...");
    process.exitCode = 2;
    return;
  }
  installStartSteps();
  try {
    for (const file of files) {
      const xml = await readFile(file, "utf8");
      const done = await runUnit(
        async ({ tx, now, audit }) => {
          const counts = await importPaymentStatusReport(tx, { xml, now });
          // Who did it: the console upload's audit entry, actor cli:<user>.
          const entry = { action: "paymentStatusReport.import", targetType: "paymentStatusReport", targetId: path.basename(file) };
          audit.record({ ...entry, after: { ...counts } });
          return counts;
        },
        { context: { script: "payment-status:import", file }, actor: { kind: "system", operator: cliActor() }, db: ready },
      );
      if (!done.ok) {
        const issues = (done.error.details as { issues?: { field: string; message?: string }[] } | undefined)?.issues ?? [];
        console.error(`${file}: ${done.error.message}${issues.map((i) => ` ${i.field}: ${i.message ?? ""}`).join(";")}`);
        process.exitCode = 1;
        continue;
      }
      const c = done.value;
      console.log(`${file}: ${c.transactions} transactions, ${c.applied} applied, ${c.unmatched} unmatched, ${c.duplicates} duplicates`);
      // Which lines did not apply and why, one per line.
      for (const l of c.unmatchedLines) console.log(`  unmatched ${l.endToEndId} ${l.status}: ${l.message}`);
    }
  } catch (err) {
    console.error(`payment-status:import failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}

void main(process.argv.slice(2));
