"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/operations/console/action";
import { changePassword } from "@/lib/operations/operators/accounts";

// The operator's own password: the current one proves it is them.
export const changePasswordAction = consoleAction(
  { role: "reviewer", own: true },
  z
    .object({ current: z.string().min(1).max(256), next: z.string().min(12).max(256), repeat: z.string().max(256) })
    .refine((v) => v.next === v.repeat, { message: "the two new passwords differ", path: ["repeat"] }),
  async ({ tx, input, operator, now }) => {
    await changePassword(tx, operator, { current: input.current, next: input.next }, now);
    return "Your password is changed.";
  },
);
