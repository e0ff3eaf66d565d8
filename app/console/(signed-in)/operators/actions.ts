"use server";

import { z } from "zod";
import { createOperator, makeResetLink, setOperatorEnabled } from "@/lib/operations/commands/operations";
import { actedNotice } from "@/lib/operations/commands/run";
import { consoleCommand, consoleFormCommand } from "@/lib/operations/console/action";

export const createOperatorAction = consoleCommand(
  "admin",
  z.object({
    email: z.string().email(),
    name: z.string().trim().min(2).max(100),
    role: z.enum(["reviewer", "admin", "auditor"]),
    password: z.string().min(12).max(256),
  }),
  (input) => ({ command: createOperator, input }),
);

// Disable (their sessions end at once) or enable another operator.
export const setOperatorEnabledAction = consoleCommand(
  "admin",
  z.object({ operatorId: z.string().min(1), enabled: z.enum(["true", "false"]) }),
  ({ operatorId, enabled }) => ({ command: setOperatorEnabled, input: { operatorId, enabled: enabled === "true" } }),
);

// A one-time link for another operator: a new password, or a lost second factor replaced. The link
// comes back to this submission only (useActionState), once: it is never e-mailed nor stored in clear.
export const resetLinkAction = consoleFormCommand(
  "admin",
  z.object({ operatorId: z.string().min(1), kind: z.enum(["password", "totp"]) }),
  (input) => ({ command: makeResetLink, input }),
  (acted) => ({ notice: actedNotice(acted), ...(acted.kind === "performed" && acted.performed.once ? { once: { link: acted.performed.once.link } } : {}) }),
);
