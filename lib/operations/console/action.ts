import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { z } from "zod";
import type { Command } from "@/lib/operations/commands/command";
import { actedNotice, runCommand, type Acted } from "@/lib/operations/commands/run";
import type { DomainError } from "@/lib/platform/errors";
import type { ActingRole, Operator } from "@/lib/operations/operators/records";
import { ready } from "@/lib/platform/ready";
import { outside, runUnit, type Outcome, type UnitContext } from "@/lib/platform/unit-of-work";
import { requireOperator } from "./session";

export interface ActionContext<T, P = undefined> extends UnitContext {
  input: T;
  /** What `prepare` fetched before the transaction opened. */
  prepared: P;
  operator: Operator;
}

/**
 * The role an action needs. Every action changes something, so an auditor is refused here, for
 * every action, but `own`: the operator's own sign-in (password, second factor), which an auditor
 * keeps like anyone. `enrolling`: also for an operator still to set up their second factor.
 */
type Who = ActingRole | { role: ActingRole; own: true; enrolling?: true };
const check = (who: Who) =>
  typeof who === "string" ? requireOperator(who, { changes: true }) : requireOperator(who.role, { enrolling: who.enrolling, changes: !who.own });

type Run<T, P, R = string> = (ctx: ActionContext<T, P>) => Promise<R>;
type Action<T, P, R> = Run<T, P, R> | { prepare: (input: T) => Promise<P>; run: Run<T, P, R> };

/**
 * A console server action: checks the operator and role, validates the form with zod, runs
 * `prepare` (anything remote, e.g. a partner's JWKS URL: no network call inside a transaction),
 * then the domain call and its audit entry in the unit of work (a kept error's writes commit, as on
 * the API), and returns to `back` with a notice or the error's message (e.g. "already decided"
 * when another operator acted first).
 */
export function consoleAction<S extends z.ZodType, P = undefined>(who: Who, schema: S, action: Action<z.output<S>, P, string>) {
  return async (formData: FormData): Promise<void> => {
    const operator = await check(who);
    const back = String(formData.get("back") ?? "/console");
    const parsed = schema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) redirect(backWith(back, "error", formErrors(parsed.error)));
    const done = await perform(parsed.data, operator, action);
    redirect(done.ok ? backWith(back, "notice", done.value) : backWith(back, "error", describe(done.error)));
  };
}

/**
 * `back` with the outcome: a console path only (anything else is the Overview), its own query
 * kept (the month a form was about), an earlier notice or error replaced.
 */
function backWith(back: string, key: "notice" | "error", message: string): string {
  const url = new URL(back, "http://console.invalid");
  if (!back.startsWith("/") || url.origin !== "http://console.invalid" || !/^\/console(\/|$)/.test(url.pathname))
    return `/console?${key}=${encodeURIComponent(message)}`;
  const kept = [...url.searchParams].filter(([k]) => k !== "notice" && k !== "error").map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}&`);
  return `${url.pathname}?${kept.join("")}${key}=${encodeURIComponent(message)}`;
}

/** What a console form read with useActionState gets back: a notice or an error, and with a notice what is shown once. */
export interface FormState<V> {
  notice?: string;
  error?: string;
  /** Shown once on the page that asked (a new key, a first secret): never in a URL, a redirect or a log. */
  once?: V;
  /** Each problem at the field it is about (the form's field name, or the command's issue field), for a form that shows them there. */
  fieldErrors?: Record<string, string>;
  /** What was submitted, for a form that shows it again beside its problems. */
  values?: Record<string, string>;
}

/**
 * The same checks and unit of work as consoleAction, for a form whose answer must not travel in a
 * URL (a new partner key, a first webhook secret): the result goes back to that one submission
 * (React's useActionState), and the page's data is refreshed (revalidatePath of `back`), so a reload
 * shows it no more.
 */
export function consoleFormAction<S extends z.ZodType, V, P = undefined>(who: Who, schema: S, action: Action<z.output<S>, P, { notice: string; once?: V }>) {
  return async (_previous: FormState<V>, formData: FormData): Promise<FormState<V>> => {
    const operator = await check(who);
    const back = String(formData.get("back") ?? "/console");
    const parsed = schema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return { error: formErrors(parsed.error) };
    const done = await perform(parsed.data, operator, action);
    if (!done.ok) return { error: describe(done.error) };
    revalidatePath(back.startsWith("/console") ? back.split("?")[0] : "/console");
    return done.value.once === undefined ? { notice: done.value.notice } : done.value;
  };
}

/** What a console form asks for: a command, its input, and the operator's reason (for the audit entry and a proposal). */
export interface Asked {
  /** Any command: it checks `input` with its own schema. */
  command: Command;
  input: unknown;
  reason?: string;
}

type Ask<T, P> = ((form: T) => Asked) | { prepare: (form: T) => Promise<P>; ask: (form: T, prepared: P) => Asked };

/**
 * A console form that asks for a command (lib/operations/commands): checks the operator and role, validates
 * the form, runs `prepare` (anything remote) before any transaction, then hands the command and its
 * input to the runner (unit of work, dual control, locks, audit), and returns to `back` with the
 * notice (done, or proposed for a second operator) or the error's message.
 */
export function consoleCommand<S extends z.ZodType, P = undefined>(who: Who, form: S, ask: Ask<z.output<S>, P>) {
  return async (formData: FormData): Promise<void> => {
    const operator = await check(who);
    const back = String(formData.get("back") ?? "/console");
    const parsed = form.safeParse(Object.fromEntries(formData));
    if (!parsed.success) redirect(backWith(back, "error", formErrors(parsed.error)));
    const done = await askFor(parsed.data, operator, ask);
    redirect(done.ok ? backWith(back, "notice", actedNotice(done.value)) : backWith(back, "error", describe(done.error)));
  };
}

/**
 * consoleCommand for a form read with useActionState whose command may create something shown
 * once (a partner key, a first webhook secret): `answer` turns what was done into the form's state.
 */
export function consoleFormCommand<S extends z.ZodType, V, P = undefined>(
  who: Who,
  form: S,
  ask: Ask<z.output<S>, P>,
  answer: (acted: Acted) => { notice: string; once?: V },
) {
  return async (_previous: FormState<V>, formData: FormData): Promise<FormState<V>> => {
    const operator = await check(who);
    const back = String(formData.get("back") ?? "/console");
    const parsed = form.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return { error: formErrors(parsed.error), fieldErrors: zodFieldErrors(parsed.error) };
    const done = await askFor(parsed.data, operator, ask);
    if (!done.ok) return { error: describe(done.error), fieldErrors: issueFieldErrors(done.error) };
    revalidatePath(back.startsWith("/console") ? back.split("?")[0] : "/console");
    const value = answer(done.value);
    return value.once === undefined ? { notice: value.notice } : value;
  };
}

async function askFor<T, P>(form: T, operator: Operator, ask: Ask<T, P>): Promise<Outcome<Acted>> {
  const context = { operatorId: operator.id };
  if (typeof ask === "function") return runAsked(ask(form), operator, context);
  const prepared = await outside(() => ask.prepare(form), context);
  return prepared.ok ? runAsked(ask.ask(form, prepared.value), operator, context) : prepared;
}

function runAsked(asked: Asked, operator: Operator, context: Record<string, unknown>): Promise<Outcome<Acted>> {
  return runCommand(asked.command, asked.input, { operator, reason: asked.reason }, { context });
}

async function perform<T, P, R>(input: T, operator: Operator, action: Action<T, P, R>): Promise<Outcome<R>> {
  const { prepare, run } = typeof action === "function" ? { prepare: undefined, run: action } : action;
  const context = { operatorId: operator.id };
  const prepared = prepare ? await outside(() => prepare(input), context) : { ok: true as const, value: undefined as P };
  const actor = { kind: "operator" as const, operator };
  return prepared.ok ? runUnit((unit) => run({ ...unit, input, prepared: prepared.value, operator }), { context, actor, db: ready }) : prepared;
}

function formErrors(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
}

/** The first problem of each form field. */
function zodFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of error.issues) out[i.path.join(".") || "form"] ??= i.message;
  return out;
}

/** A validation error's issues by field (the command's names, e.g. US-MX.principalFee); none for other errors. */
function issueFieldErrors(err: DomainError): Record<string, string> | undefined {
  const issues = (err.details as { issues?: { field?: unknown; message?: unknown }[] } | undefined)?.issues;
  if (!Array.isArray(issues)) return undefined;
  const out: Record<string, string> = {};
  for (const i of issues) if (typeof i.field === "string") out[i.field] ??= typeof i.message === "string" ? i.message : "invalid";
  return out;
}

function describe(err: DomainError): string {
  if (err.code === "server.unexpected") return "Something went wrong; nothing was changed.";
  const current = (err.details as { currentState?: string } | undefined)?.currentState;
  if (err.code.endsWith(".stateInvalid") || err.code === "customer.statusInvalid") {
    return `Already decided by someone else${current ? ` (now ${current})` : ""}: nothing was changed.`;
  }
  return err.message;
}
