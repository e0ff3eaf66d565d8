"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { recordAudit } from "@/lib/operators/audit";
import { createOperator } from "@/lib/operators/records";

export const createOperatorAction = consoleAction(
  "admin",
  z.object({ email: z.string().email(), name: z.string().trim().min(2).max(100), role: z.enum(["reviewer", "admin"]), password: z.string().min(12).max(256) }),
  async ({ tx, input, operator, now }) => {
    const created = await createOperator(tx, { ...input, now });
    await recordAudit(
      tx,
      operator,
      { action: "operator.create", targetType: "operator", targetId: created.id, after: { email: created.email, role: created.role } },
      now,
    );
    return `Operator ${created.email} (${created.role}) created.`;
  },
);
