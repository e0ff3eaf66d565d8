import { redirect } from "next/navigation";
import type { z } from "zod";
import type { Tx } from "@/db";
import { clock } from "@/lib/clock";
import type { DomainError } from "@/lib/errors";
import type { Operator, OperatorRole } from "@/lib/operators/records";
import { unitOfWork } from "@/lib/platform/unit-of-work";
import { requireOperator } from "./session";

export interface ActionContext<T> {
  tx: Tx;
  input: T;
  operator: Operator;
  now: Date;
}

/**
 * A console server action: checks the operator and role, validates the form with zod, runs the
 * domain call and its audit entry in the unit of work (a kept error's writes commit, as on the API), then returns to `back` with a notice or the
 * error's message (e.g. "already decided" when another operator acted first).
 */
export function consoleAction<S extends z.ZodType>(role: OperatorRole, schema: S, run: (ctx: ActionContext<z.output<S>>) => Promise<string>) {
  return async (formData: FormData): Promise<void> => {
    const operator = await requireOperator(role);
    const back = String(formData.get("back") ?? "/console");
    const safeBack = back.startsWith("/console") ? back.split("?")[0] : "/console";
    const parsed = schema.safeParse(Object.fromEntries(formData));
    let outcome: string;
    if (!parsed.success) {
      outcome = `error=${encodeURIComponent(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "))}`;
    } else {
      const done = await unitOfWork((tx) => run({ tx, input: parsed.data, operator, now: clock.now() }), { context: { operatorId: operator.id } });
      outcome = done.ok ? `notice=${encodeURIComponent(done.value)}` : `error=${encodeURIComponent(describe(done.error))}`;
    }
    redirect(`${safeBack}?${outcome}`);
  };
}

function describe(err: DomainError): string {
  if (err.code === "server.unexpected") return "Something went wrong; nothing was changed.";
  const current = (err.details as { currentState?: string } | undefined)?.currentState;
  if (err.code.endsWith(".stateInvalid") || err.code === "customer.statusInvalid") {
    return `Already decided by someone else${current ? ` (now ${current})` : ""}: nothing was changed.`;
  }
  return err.message;
}
