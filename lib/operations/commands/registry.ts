/**
 * Every command by its name: what a proposal names (lib/operations/dual-control), and what `act` looks up.
 * A command under dual control is also listed in lib/platform/config/controlled-actions.ts (the configuration's
 * names); test/unit/commands/registry.test.ts checks each one is here with its `describe`.
 */
import { validationError } from "@/lib/platform/errors";
import type { ActingRole } from "@/lib/operations/operators/records";
import type { Command } from "./command";
import * as cases from "./cases";
import * as claims from "./claims";
import * as configuration from "./configuration";
import * as customers from "./customers";
import * as finance from "./finance";
import * as monitoring from "./monitoring";
import * as operations from "./operations";
import * as partners from "./partners";
import * as payouts from "./payouts";
import * as screening from "./screening";
import * as transfers from "./transfers";

const isCommand = (v: unknown): v is Command => typeof v === "object" && v !== null && "name" in v && "run" in v;

/** Every command the modules above export (their other exports are helpers). */
const ALL: Command[] = [cases, claims, configuration, customers, finance, monitoring, operations, partners, payouts, screening, transfers].flatMap((m) =>
  Object.values(m).filter(isCommand),
);

const BY_NAME = new Map(ALL.map((c) => [c.name, c]));

/** The command named `name`; an unknown one is a 400 (a proposal's or a caller's typo). */
export function commandNamed(name: string): Command {
  const found = BY_NAME.get(name);
  if (!found) throw validationError([{ field: "action", code: "validation.fieldInvalid", message: `unknown action ${name}` }]);
  return found;
}

/** The role a command needs, or undefined for a name no command has. */
export function roleOf(name: string): ActingRole | undefined {
  return BY_NAME.get(name)?.role;
}

/** Every command's name (for the registry's test and the docs). */
export const COMMAND_NAMES: readonly string[] = ALL.map((c) => c.name);
