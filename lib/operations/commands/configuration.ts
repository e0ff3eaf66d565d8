/**
 * Commands on the business configuration (lib/payments/corridors/versions.ts, proposed-version.ts): a new version of the
 * corridors and their prices, proposed by one admin with its effective time and approved by another
 * (dual control); the approver sees every changed field and a quote previewed under the old and the
 * new price before deciding.
 */
import { z } from "zod";
import { clock } from "@/lib/platform/clock";
import { openProposalFor } from "@/lib/operations/dual-control/open-proposal";
import { checkDocument, describeProposedVersion, insertVersion } from "@/lib/payments";
import { command } from "./command";

const SUBJECT = { type: "configuration", id: "corridors" } as const;
const NAME = "configuration.version.publish";

/** A version of the whole configuration document, in force from `effectiveAt` (not in the past when proposed). */
export const publishConfigurationVersion = command({
  name: NAME,
  role: "admin",
  input: z.object({
    document: z.record(z.string(), z.unknown()),
    effectiveAt: z.iso.datetime({ offset: true }),
    note: z.string().trim().min(3).max(500),
  }),
  // One proposed version at a time: each is built on the latest, and approving it makes the next.
  subject: () => SUBJECT,
  describe: (tx, p) => describeProposedVersion(tx, p, clock.now()),
  run: async ({ tx, operator, now, reason }, p) => {
    checkDocument(p.document);
    // The proposal being approved (none when the command runs without dual control): its proposer is recorded on the version.
    const proposal = await openProposalFor(tx, NAME, SUBJECT);
    const row = await insertVersion(
      tx,
      {
        document: p.document,
        effectiveAt: new Date(p.effectiveAt),
        note: p.note || reason || "",
        proposedByEmail: proposal?.proposedByEmail ?? operator.email,
        approvedByEmail: operator.email,
        proposalId: proposal?.id ?? null,
      },
      now,
    );
    return {
      targetType: "configuration",
      targetId: `v${row.version}`,
      after: { version: row.version, effectiveAt: row.effectiveAt.toISOString() },
      notice: `Configuration version ${row.version} approved: in force from ${row.effectiveAt.toISOString()}.`,
    };
  },
});
