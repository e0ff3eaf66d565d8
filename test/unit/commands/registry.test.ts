/**
 * The command registry (lib/operations/commands/registry.ts): one command per name; every command that may
 * be put under dual control (lib/platform/config/controlled-actions.ts, the configuration's names) is there with
 * what a proposal needs (its subject and how the approver sees it); a renamed one points at one.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { COMMAND_NAMES, commandNamed } from "@/lib/operations/commands/registry";
import { CONTROLLED_ACTIONS, RENAMED } from "@/lib/platform/config/controlled-actions";

test("command names are unique", () => {
  assert.equal(new Set(COMMAND_NAMES).size, COMMAND_NAMES.length);
});

test("every command under dual control has a subject and a describe; every old name points at one", () => {
  for (const name of CONTROLLED_ACTIONS) {
    const command = commandNamed(name);
    assert.ok(command.subject && command.describe, `${name}: subject and describe`);
  }
  for (const [old, { to }] of Object.entries(RENAMED)) assert.ok((CONTROLLED_ACTIONS as readonly string[]).includes(to), `${old} → ${to}`);
});

test("an unknown name is a 400 validation error, not a crash", () => {
  assert.throws(
    () => commandNamed("transfer.teleport"),
    (e: unknown) => (e as { code?: string }).code === "validation.fieldInvalid",
  );
});
