/**
 * A proposed configuration version as the approver sees it: checked (schema problems at their
 * field, an effective time not in the past, something changed), every changed field before and
 * after (the tier limits among them), and per changed corridor a quote previewed at this instant under the latest version and
 * under the proposed one. lib/operations/commands/configuration.ts puts it on the proposal.
 */
import type { Tx } from "@/db";
import { validationError } from "@/lib/platform/errors";
import { referenceRates } from "@/lib/payments/pricing/rate-store";
import { checkDocument, diffDocuments, previewQuote } from "./changes";
import { corridorByCode } from "./corridors";
import { latestTable, parseDocument, refreshVersions, storedVersion, tableInForce } from "./versions";

/** At most this many changed fields are listed on the proposal (the console's diff shows them all). */
const LISTED_CHANGES = 40;

/** How far in the past a proposed effective time may be (the time to fill the form): later, it is refused. */
const PAST_GRACE_MS = 60_000;

const refused = (field: string, message: string) => validationError([{ field, code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);

export async function describeProposedVersion(
  tx: Tx,
  p: { document: Record<string, unknown>; effectiveAt: string },
  now: Date,
): Promise<{ summary: string; before: Record<string, unknown>; after: Record<string, unknown> }> {
  checkDocument(p.document);
  const effectiveAt = new Date(p.effectiveAt);
  if (effectiveAt.getTime() < now.getTime() - PAST_GRACE_MS) throw refused("effectiveAt", "The effective time is in the past.");
  await refreshVersions(tx);
  const base = latestTable();
  const current = tableInForce(now);
  const changes = diffDocuments(storedVersion(base.version)?.document ?? {}, p.document);
  if (changes.length === 0) throw refused("document", `Nothing differs from version ${base.version}.`);
  const proposed = parseDocument(p.document);
  const rates = await referenceRates(tx);
  // Built on the latest version (scheduled or in force); the one in force now is named when it differs.
  const before: Record<string, unknown> = {
    version: base.version === current.version ? base.version : `${base.version} (in force now: ${current.version})`,
    effectiveAt: base.effectiveAt.toISOString(),
  };
  const after: Record<string, unknown> = { version: base.version + 1, effectiveAt: effectiveAt.toISOString() };
  for (const c of changes.slice(0, LISTED_CHANGES)) {
    before[c.field] = c.before;
    after[c.field] = c.after;
  }
  // A quote previewed per changed corridor (a corridor's fields are named by its code; tier limits and funding terms price nothing).
  for (const code of new Set(changes.map((c) => c.field.split(".")[0]).filter((head) => /^[A-Z]{2}-[A-Z]{2}$/.test(head)))) {
    const old = corridorByCode(code, base);
    const next = proposed.find((c) => c.code === code);
    before[`preview ${code}`] = old ? previewQuote(old, now, rates) : "not offered";
    after[`preview ${code}`] = next ? previewQuote(next, now, rates) : "not offered";
  }
  const listed = changes
    .slice(0, 3)
    .map((c) => c.field)
    .join(", ");
  const more = changes.length > 3 ? ` and ${changes.length - 3} more` : "";
  return { summary: `Configuration version ${base.version + 1} from ${effectiveAt.toISOString()}: ${listed}${more}`, before, after };
}
