"use server";

import { z } from "zod";
import { consoleAction, consoleFormAction } from "@/lib/operations/console/action";
import { beginEnrolment, confirmEnrolment } from "@/lib/operations/operators/accounts";

// The operator's own second factor: reachable before it is set up.
const enrolling = { role: "reviewer", own: true, enrolling: true } as const;

export const beginEnrolmentAction = consoleAction(enrolling, z.object({}), async ({ tx, operator }) => {
  await beginEnrolment(tx, operator.id);
  return "Scan the code with your authenticator app, then enter the 6-digit code it shows.";
});

// The recovery codes come back to this submission only (useActionState), never in a URL.
export const confirmEnrolmentAction = consoleFormAction(
  enrolling,
  z.object({ code: z.string().trim().min(6).max(12) }),
  async ({ tx, input, operator, now }) => {
    const codes = await confirmEnrolment(tx, operator, input.code, now);
    return { notice: "Two-factor authentication is on.", once: { recoveryCodes: codes.join(" ") } };
  },
);
