import { redirect } from "next/navigation";
import type { z } from "zod";
import type { Tx } from "@/db";
import { clock } from "@/lib/clock";
import type { DomainError } from "@/lib/errors";
import type { Operator, OperatorRole } from "@/lib/operators/records";
import { outside, unitOfWork } from "@/lib/platform/unit-of-work";
import { requireOperator } from "./session";

export interface ActionContext<T, P = undefined> {
  tx: Tx;
  input: T;
  /** What `prepare` fetched before the transaction opened. */
  prepared: P;
  operator: Operator;
  now: Date;
}

type Run<T, P> = (ctx: ActionContext<T, P>) => Promise<string>;

/**
 * A console server action: checks the operator and role, validates the form with zod, runs
 * `prepare` (anything remote, e.g. a partner's JWKS URL: no network call inside a transaction),
 * then the domain call and its audit entry in the unit of work (a kept error's writes commit, as on
 * the API), and returns to `back` with a notice or the error's message (e.g. "already decided"
 * when another operator acted first).
 */
export function consoleAction<S extends z.ZodType, P = undefined>(
  role: OperatorRole,
  schema: S,
  action: Run<z.output<S>, P> | { prepare: (input: z.output<S>) => Promise<P>; run: Run<z.output<S>, P> },
) {
  const { prepare, run } = typeof action === "function" ? { prepare: undefined, run: action } : action;
  return async (formData: FormData): Promise<void> => {
    const operator = await requireOperator(role);
    const back = String(formData.get("back") ?? "/console");
    const safeBack = back.startsWith("/console") ? back.split("?")[0] : "/console";
    const parsed = schema.safeParse(Object.fromEntries(formData));
    redirect(`${safeBack}?${parsed.success ? await perform(parsed.data, operator) : `error=${encodeURIComponent(formErrors(parsed.error))}`}`);
  };

  async function perform(input: z.output<S>, operator: Operator): Promise<string> {
    const context = { operatorId: operator.id };
    const prepared = prepare ? await outside(() => prepare(input), context) : { ok: true as const, value: undefined as P };
    const done = prepared.ok ? await unitOfWork((tx) => run({ tx, input, prepared: prepared.value, operator, now: clock.now() }), { context }) : prepared;
    return done.ok ? `notice=${encodeURIComponent(done.value)}` : `error=${encodeURIComponent(describe(done.error))}`;
  }
}

function formErrors(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
}

function describe(err: DomainError): string {
  if (err.code === "server.unexpected") return "Something went wrong; nothing was changed.";
  const current = (err.details as { currentState?: string } | undefined)?.currentState;
  if (err.code.endsWith(".stateInvalid") || err.code === "customer.statusInvalid") {
    return `Already decided by someone else${current ? ` (now ${current})` : ""}: nothing was changed.`;
  }
  return err.message;
}
