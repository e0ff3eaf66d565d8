/**
 * The examiner's read-only role (`auditor`): every registered command is refused to an auditor by
 * the runner's one role check, before its input is read, and nothing is written (no audit entry,
 * no proposal); an auditor neither proposes, approves, declines, nor reveals what an approved
 * proposal created. What an auditor reads: every console page in the header (an admin's too), and
 * no proposal is counted as theirs to approve. PGlite, or PostgreSQL with TEST_DB_URL (a database
 * of its own: it counts whole tables).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { count } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog, proposals } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { maker, transferIn } from "../../support/commands";
import { newSubscription, type Owner } from "../../support/fixtures";

const auditor: Operator = { id: "op_cmd_auditor", email: "cmd-auditor@example.com", name: "Examiner", role: "auditor" };

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
  owner = await newSubscription(db);
});
after(() => close());

const written = async () => ({
  audit: (await db.select({ n: count() }).from(auditLog))[0].n,
  proposals: (await db.select({ n: count() }).from(proposals))[0].n,
});

const refused = (err: unknown) => err instanceof DomainError && err.code === "proposal.roleInsufficient";

test("every registered command is refused to an auditor (403), whatever its input, and nothing is written", async () => {
  const { COMMAND_NAMES, commandNamed } = await import("@/lib/operations/commands/registry");
  const { runCommand } = await import("@/lib/operations/commands/run");
  const { httpStatusOf } = await import("@/lib/platform/errors");
  assert.ok(COMMAND_NAMES.length >= 30, `found ${COMMAND_NAMES.length} commands`);
  const before = await written();
  for (const name of COMMAND_NAMES) {
    for (const input of [{}, { transferId: "tr_any", reason: "an examiner tries", operatorId: auditor.id }]) {
      const outcome = await runCommand(commandNamed(name), input, { operator: auditor, reason: "an examiner tries" });
      assert.equal(outcome.ok, false, `${name} ran for an auditor`);
      if (!outcome.ok) {
        assert.equal(outcome.error.code, "proposal.roleInsufficient", `${name}: ${outcome.error.code}`);
        assert.equal(httpStatusOf(outcome.error.code), 403, name);
      }
    }
  }
  assert.deepEqual(await written(), before, "no audit entry, no proposal");
});

test("an auditor cannot approve, decline or reveal a proposal; a reviewer's proposal stays open", async () => {
  const { execute } = await import("@/lib/operations/commands/run");
  const { releaseHold } = await import("@/lib/operations/commands/transfers");
  const { approve, decline, propose, revealSecret } = await import("@/lib/operations/dual-control/proposals");
  const { approvableProposalCount } = await import("@/lib/operations/dual-control/queries");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const transferId = await transferIn(db, owner, { amount: "250000.00", hold: true });
  const acted = await inUnit(({ tx, now }) => execute(tx, releaseHold, { transferId }, { operator: maker, reason: "Documents checked", now }), { db });
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  const as = (work: Parameters<typeof inUnit>[0]) => inUnit(work, { db });
  const by = (now: Date) => ({ operator: auditor, reason: "an examiner tries", now });
  await assert.rejects(
    as(({ tx, now }) => approve(tx, proposalId, by(now))),
    refused,
  );
  await assert.rejects(
    as(({ tx, now }) => decline(tx, proposalId, by(now))),
    refused,
  );
  await assert.rejects(
    as(({ tx, now }) => revealSecret(tx, proposalId, by(now))),
    refused,
  );
  await assert.rejects(
    as(({ tx, now }) => propose(tx, "transfer.hold.restore", { transferId }, by(now))),
    refused,
  );
  const [row] = await db.select({ state: proposals.state }).from(proposals);
  assert.equal(row.state, "PROPOSED");
  assert.equal(await approvableProposalCount(db, auditor, new Date(Date.now() + 1000)), 0, "none is an auditor's to approve");
  assert.ok((await approvableProposalCount(db, { id: "op_other", role: "reviewer" }, new Date(Date.now() + 1000))) >= 1, "a reviewer's to approve");
});

test("an auditor's header has every page an admin's has (an examiner reads everything)", async () => {
  const { navigationFor } = await import("@/lib/operations/console/navigation");
  const hrefs = (role: Operator["role"]) => navigationFor(role).flatMap((g) => g.links.map(([href]) => href));
  assert.deepEqual(hrefs("auditor"), hrefs("admin"));
  assert.ok(hrefs("auditor").length > hrefs("reviewer").length);
});

test("an admin may create an auditor; an auditor may not create one (nor grant themselves anything)", async () => {
  const { runCommand } = await import("@/lib/operations/commands/run");
  const { createOperator } = await import("@/lib/operations/commands/operations");
  const admin: Operator = { id: "op_cmd_admin", email: "cmd-admin@example.com", name: "Admin", role: "admin" };
  const email = `examiner.${Date.now()}@example.com`;
  const input = { email, name: "An Examiner", role: "auditor", password: "a-long-password-for-tests" };
  const bySelf = await runCommand(createOperator, { ...input, email: `2.${email}` }, { operator: auditor });
  assert.equal(bySelf.ok, false);
  const byReviewer = await runCommand(createOperator, input, { operator: maker });
  assert.equal(byReviewer.ok, false);
  const done = await runCommand(createOperator, input, { operator: admin });
  assert.ok(done.ok, done.ok ? "" : done.error.message);
  assert.match(done.value.kind === "performed" ? done.value.performed.notice : "", new RegExp(`${email.replace(/\./g, "\\.")} \\(auditor\\) created`));
});
