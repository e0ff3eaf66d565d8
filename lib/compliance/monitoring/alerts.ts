import type { Tx } from "@/db";
import { raiseAlert } from "@/lib/compliance/cases/cases";
import type { Monitoring } from "./evaluate";

/**
 * A live evaluation that reached review or block raises an alert on the customer's compliance case
 * (lib/compliance/cases): in shadow mode a shadow alert, which opens no case and changes nothing.
 */
export async function alertOnOutcome(tx: Tx, transfer: { id: string; customerId: string }, monitoring: Monitoring, now: Date): Promise<void> {
  if (monitoring.outcome === "pass") return;
  const shadow = monitoring.mode === "shadow";
  const typologies = monitoring.evaluation.typologies
    .filter((t) => t.outcome !== "pass")
    .map((t) => `${t.typology} (${t.outcome})`)
    .join(", ");
  await raiseAlert(tx, {
    customerId: transfer.customerId,
    kind: shadow ? "SHADOW_ALERT" : monitoring.outcome === "block" ? "MONITORING_BLOCK" : "MONITORING_REVIEW",
    transferId: transfer.id,
    evaluationId: monitoring.evaluationId,
    summary: `Monitoring, rule set v${monitoring.evaluation.ruleSetVersion}${shadow ? " (shadow: not acted on)" : ""}: ${typologies}`,
    shadow,
    now,
  });
}
