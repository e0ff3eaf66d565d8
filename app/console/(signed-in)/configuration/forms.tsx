"use client";

import { useActionState, type ReactNode } from "react";
import { FormFlash } from "@/components/console/shown-once";
import { input, primary } from "@/components/console/ui";
import type { FormState } from "@/lib/operations/console/action";
import { importVersion, proposeCalendars, proposeFunding, proposePayoutBanks, proposePrice, proposeTierLimits } from "./actions";

const BACK = "/console/configuration";

/** The first problem at one of `names` or inside it (US-MX.principalFeeBands.1.fee is the bands' field). */
function problemAt(state: FormState<unknown>, names: string[]): string | undefined {
  const errors = Object.entries(state.fieldErrors ?? {});
  return names.map((n) => errors.find(([field]) => field === n || field.startsWith(`${n}.`))?.[1]).find(Boolean);
}

/** A problem under its field: the form's own name, or the command's (US-MX.principalFee). */
function FieldError({ state, names }: { state: FormState<unknown>; names: string[] }) {
  const message = problemAt(state, names);
  return message ? (
    <span className="mt-1 block text-xs text-red-800" data-testid="field-error">
      {message}
    </span>
  ) : null;
}

function Field({
  label,
  name,
  code,
  at,
  defaultValue,
  state,
  type = "text",
}: {
  label: string;
  name: string;
  code?: string;
  /** The document's field the input writes, when not `${code}.${name}` (funding.windows.CARD.minutes). */
  at?: string;
  defaultValue?: string;
  state: FormState<unknown>;
  type?: string;
}) {
  const names = [name, ...(code ? [`${code}.${name}`] : []), ...(at ? [at] : [])];
  const invalid = !!problemAt(state, names);
  return (
    <label className="flex flex-col text-sm">
      {label}
      <input
        className={`${input} ${invalid ? "border-red-600" : ""}`}
        name={name}
        type={type}
        defaultValue={state.values?.[name] ?? defaultValue}
        aria-invalid={invalid}
      />
      <FieldError state={state} names={names} />
    </label>
  );
}

const LABELS: Record<string, string> = {
  principalFee: "Principal fee",
  minimumOriginAmount: "Minimum amount",
  partnerFeeCap: "Partner fee cap",
  fxTolerance: "FX tolerance",
  reviewThreshold: "Review threshold",
  maximumOriginAmount: "Maximum amount (empty: none)",
  fxMargin: "FX margin (empty: none)",
  principalFeeBands: "Fee bands (from=fee; …)",
  partnerFxMargins: "Partners' FX margins (partner=margin; …)",
  fundingMethods: "Funding methods (CARD, BANK_TRANSFER; empty: all)",
};

/** A proposal's end: from when it takes effect, why, its problems, the button and the outcome. */
function ProposalEnd({ suggestedAt, state, pending, label }: { suggestedAt: string; state: FormState<unknown>; pending: boolean; label: string }) {
  return (
    <>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Field label="Effective from (UTC)" name="effectiveAt" type="datetime-local" defaultValue={suggestedAt} state={state} />
        <Field label="Why" name="note" state={state} />
      </div>
      <FieldError state={state} names={["document"]} />
      <div>
        <button className={primary} disabled={pending}>
          {label}
        </button>
      </div>
      <FormFlash notice={state.notice} error={state.error} />
    </>
  );
}

/** One corridor's prices as a new version from an effective time, proposed for a second admin's approval. */
/**
 * A textarea of lines or JSON with the problems the action found in it listed under it, each at
 * its field's path (`label` turns a path into what the admin wrote, e.g. "line 2").
 */
function ListField({
  state,
  name,
  rows,
  value,
  isProblem,
  label = (field) => field,
  children,
}: {
  state: FormState<unknown>;
  name: string;
  rows: number;
  value: string;
  isProblem: (field: string) => boolean;
  label?: (field: string) => string;
  children: ReactNode;
}) {
  const problems = Object.entries(state.fieldErrors ?? {}).filter(([field]) => isProblem(field));
  return (
    <>
      <label className="flex flex-col text-sm">
        {children}
        <textarea
          className={`${input} font-mono ${problems.length > 0 ? "border-red-600" : ""}`}
          name={name}
          rows={rows}
          defaultValue={state.values?.[name] ?? value}
          aria-invalid={problems.length > 0}
        />
      </label>
      {problems.length > 0 ? (
        <ul className="list-disc pl-6 text-xs text-red-800" data-testid="field-error">
          {problems.map(([field, message]) => (
            <li key={field}>
              <span className="font-mono">{label(field)}</span>: {message}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function PriceForm({ code, values, suggestedAt }: { code: string; values: Record<string, string>; suggestedAt: string }) {
  const [state, action, pending] = useActionState<FormState<unknown>, FormData>(proposePrice, {});
  return (
    <form action={action} className="mt-2 flex flex-col gap-2" data-testid={`price-form-${code}`}>
      <input type="hidden" name="back" value={BACK} />
      <input type="hidden" name="code" value={code} />
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-5">
        {Object.entries(values).map(([name, value]) => (
          <Field key={name} label={LABELS[name] ?? name} name={name} code={code} defaultValue={value} state={state} />
        ))}
      </div>
      <ProposalEnd suggestedAt={suggestedAt} state={state} pending={pending} label="Propose new prices" />
    </form>
  );
}

/**
 * The tier limits (each tier's limit per rolling window, for partners without their own) as a new
 * version from an effective time, proposed for a second admin's approval.
 */
export function TierLimitsForm({ values, suggestedAt }: { values: Record<string, string>; suggestedAt: string }) {
  const [state, action, pending] = useActionState<FormState<unknown>, FormData>(proposeTierLimits, {});
  return (
    <form action={action} className="mt-2 flex flex-col gap-2" data-testid="tier-limits-form">
      <input type="hidden" name="back" value={BACK} />
      <div className="grid grid-cols-3 gap-2">
        {Object.entries(values).map(([name, value]) => (
          <Field key={name} label={`Tier ${name.replace(".", " ")}`} name={name} code="tierLimits" defaultValue={value} state={state} />
        ))}
      </div>
      <ProposalEnd suggestedAt={suggestedAt} state={state} pending={pending} label="Propose new limits" />
    </form>
  );
}

/**
 * The funding terms (each method's window, the collection accounts) as a new version from an
 * effective time, proposed for a second admin's approval; an empty field leaves the setting's.
 */
export function FundingForm({ values, suggestedAt }: { values: Record<string, string>; suggestedAt: string }) {
  const [state, action, pending] = useActionState<FormState<unknown>, FormData>(proposeFunding, {});
  return (
    <form action={action} className="mt-2 flex flex-col gap-2" data-testid="funding-form">
      <input type="hidden" name="back" value={BACK} />
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Field
          label="Card window, minutes (empty: the setting)"
          name="cardMinutes"
          at="funding.windows.CARD.minutes"
          defaultValue={values.cardMinutes}
          state={state}
        />
        <Field
          label="Bank transfer window, business days (empty: the setting)"
          name="bankTransferBusinessDays"
          at="funding.windows.BANK_TRANSFER.businessDays"
          defaultValue={values.bankTransferBusinessDays}
          state={state}
        />
      </div>
      <ListField
        state={state}
        name="collectionAccounts"
        rows={3}
        value={values.collectionAccounts}
        isProblem={(field) => field === "collectionAccounts" || field.startsWith("funding.collectionAccounts")}
        label={(field) => field.replace(/^funding\.collectionAccounts\.(\d+)/, (_, i: string) => `line ${Number(i) + 1}`)}
      >
        Collection accounts, one per line: IBAN; BIC; currencies; time zone; name (empty: the setting)
      </ListField>
      <ProposalEnd suggestedAt={suggestedAt} state={state} pending={pending} label="Propose new funding terms" />
    </form>
  );
}

/** Countries' business days where the holiday table is wrong for our banks, as a new version proposed for a second admin's approval. */
export function CalendarsForm({ value, suggestedAt }: { value: string; suggestedAt: string }) {
  const [state, action, pending] = useActionState<FormState<unknown>, FormData>(proposeCalendars, {});
  return (
    <form action={action} className="mt-2 flex flex-col gap-2" data-testid="calendars-form">
      <input type="hidden" name="back" value={BACK} />
      <ListField state={state} name="calendars" rows={3} value={value} isProblem={(field) => field.startsWith("calendars")}>
        Calendar changes, one line per country and kind: MX closed 2027-01-05, 2027-01-06 or DE open 2026-12-24 (empty: the holiday table alone)
      </ListField>
      <ProposalEnd suggestedAt={suggestedAt} state={state} pending={pending} label="Propose calendar changes" />
    </form>
  );
}

/** The payout banks (the PAYOUT_BANKS setting's JSON list) as a new version proposed for a second admin's approval. */
export function PayoutBanksForm({ value, suggestedAt }: { value: string; suggestedAt: string }) {
  const [state, action, pending] = useActionState<FormState<unknown>, FormData>(proposePayoutBanks, {});
  return (
    <form action={action} className="mt-2 flex flex-col gap-2" data-testid="payout-banks-form">
      <input type="hidden" name="back" value={BACK} />
      <ListField state={state} name="payoutBanks" rows={6} value={value} isProblem={(field) => field.startsWith("payoutBanks")}>
        Payout banks, a JSON list as the PAYOUT_BANKS setting takes it: id, name, bic, debtorIban or debtorAccount {"{scheme, id}"} (CLABE, BBAN), debtorName,
        currencies, chargeBearer, timeZone, purposeCode (empty: the setting)
      </ListField>
      <ProposalEnd suggestedAt={suggestedAt} state={state} pending={pending} label="Propose payout banks" />
    </form>
  );
}

/** A whole version from JSON (another environment's export), proposed as the next version. */
export function ImportForm({ suggestedAt }: { suggestedAt: string }) {
  const [state, action, pending] = useActionState<FormState<unknown>, FormData>(importVersion, {});
  const problems = Object.entries(state.fieldErrors ?? {}).filter(([field]) => !["effectiveAt", "note"].includes(field));
  return (
    <form action={action} className="flex flex-col gap-2" data-testid="import-form">
      <input type="hidden" name="back" value={BACK} />
      <label className="flex flex-col text-sm">
        Version JSON (an export)
        <textarea className={`${input} font-mono`} name="document" rows={8} defaultValue={state.values?.document} />
      </label>
      {problems.length > 0 ? (
        <ul className="list-disc pl-6 text-xs text-red-800" data-testid="import-problems">
          {problems.map(([field, message]) => (
            <li key={field}>
              <span className="font-mono">{field}</span>: {message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Field label="Effective from (UTC)" name="effectiveAt" type="datetime-local" defaultValue={suggestedAt} state={state} />
        <Field label="Why" name="note" state={state} />
      </div>
      <div>
        <button className={primary} disabled={pending}>
          Propose as a new version
        </button>
      </div>
      <FormFlash notice={state.notice} error={state.error} />
    </form>
  );
}
