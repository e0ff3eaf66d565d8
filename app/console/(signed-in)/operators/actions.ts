"use server";

import { z } from "zod";
import { config } from "@/lib/config";
import { createOperator } from "@/lib/commands/operations";
import { consoleAction, consoleCommand, consoleFormAction } from "@/lib/console/action";
import { createResetLink, setOperatorEnabled } from "@/lib/operators/accounts";

export const createOperatorAction = consoleCommand(
  "admin",
  z.object({ email: z.string().email(), name: z.string().trim().min(2).max(100), role: z.enum(["reviewer", "admin"]), password: z.string().min(12).max(256) }),
  (input) => ({ command: createOperator, input }),
);

// Disable (their sessions end at once) or enable another operator (issue 23 item 6).
export const setOperatorEnabledAction = consoleAction(
  "admin",
  z.object({ operatorId: z.string().min(1), enabled: z.enum(["true", "false"]) }),
  async ({ tx, input, operator, now }) => {
    const row = await setOperatorEnabled(tx, operator, input.operatorId, input.enabled === "true", now);
    return `Operator ${row.email} is ${row.disabledAt ? "disabled: their sessions have ended" : "enabled"}.`;
  },
);

// A one-time link for another operator: a new password, or a lost second factor replaced. The link
// comes back to this submission only (useActionState), once: it is never e-mailed nor stored in clear.
export const resetLinkAction = consoleFormAction(
  "admin",
  z.object({ operatorId: z.string().min(1), kind: z.enum(["password", "totp"]) }),
  async ({ tx, input, operator, now }) => {
    const { token, expiresAt } = await createResetLink(tx, operator, input.operatorId, input.kind, now);
    return {
      notice: `Reset link made; it works once until ${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC. Give it to the operator in person.`,
      once: { link: `${config().publicBaseUrl}/console/reset/${token}` },
    };
  },
);
