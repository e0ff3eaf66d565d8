"use server";

import { z } from "zod";
import { publishConfigurationVersion } from "@/lib/operations/commands/configuration";
import { actedNotice } from "@/lib/operations/commands/run";
import { consoleFormCommand, type FormState } from "@/lib/operations/console/action";
import {
  FUNDING_FIELDS,
  OPTIONAL_PRICE_FIELDS,
  parseAccountLines,
  parseCalendarLines,
  parsePayoutBanksText,
  parsePairs,
  PRICE_FIELDS,
  TIER_LIMIT_FIELDS,
  withCalendars,
  withCorridorPrices,
  withFunding,
  withPayoutBanks,
  withTierLimits,
  type FundingField,
  type PriceFields,
  type TierLimitField,
} from "@/lib/payments/corridors/changes";
import { latestDocument } from "@/lib/payments/corridors/versions";
import { ready } from "@/lib/platform/ready";

// The Configuration page's forms: a new price for one corridor, new tier limits, new funding terms, calendar changes, payout banks, or a whole version
// imported from JSON; each proposes a new configuration version that a second admin approves (Approvals page).

/** A date-time input's value, read as UTC (the console shows every time in UTC). */
const effectiveAt = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, "Enter a date and time (UTC).")
  .transform((v) => new Date(`${v}Z`).toISOString());

const note = z.string().trim().min(3, "Say why, in a few words.").max(500);

const decimal = z.string().trim().min(1, "Required.");

/** An optional price: empty removes it from the corridor (the version's schema checks the value). */
const optional = z.string().trim().default("");

/** Pairs such as "500.00=4.99; 1500.00=7.99": refused here, at the field, when a pair is not "key=value". */
const pairs = (example: string) => optional.refine((text) => parsePairs(text) !== null, `Write pairs such as ${example}.`);

const priceForm = z.object({
  code: z.string().regex(/^[A-Z]{2}-[A-Z]{2}$/),
  ...(Object.fromEntries(PRICE_FIELDS.map((f) => [f, decimal])) as Record<(typeof PRICE_FIELDS)[number], typeof decimal>),
  maximumOriginAmount: optional,
  fxMargin: optional,
  principalFeeBands: pairs("500.00=4.99; 1500.00=7.99"),
  partnerFxMargins: pairs("par_123=0.005"),
  fundingMethods: optional,
  effectiveAt,
  note,
});

const answer = (acted: Parameters<typeof actedNotice>[0]) => ({ notice: actedNotice(acted) });
const latest = async () => latestDocument(await ready());

const proposePriceCommand = consoleFormCommand(
  "admin",
  priceForm,
  {
    prepare: latest,
    ask: (f, base) => {
      const prices = Object.fromEntries([...PRICE_FIELDS, ...OPTIONAL_PRICE_FIELDS].map((k) => [k, f[k]])) as PriceFields;
      return {
        command: publishConfigurationVersion,
        input: { document: withCorridorPrices(base.document, f.code, prices), effectiveAt: f.effectiveAt, note: f.note },
        reason: f.note,
      };
    },
  },
  answer,
);

/** Tier 1 and 2's limit per window ("1.P1D"...): the version's schema checks the amounts, each at its field. */
const tierLimitsForm = z.object({
  ...(Object.fromEntries(TIER_LIMIT_FIELDS.map((f) => [f, decimal])) as Record<TierLimitField, typeof decimal>),
  effectiveAt,
  note,
});

const proposeTierLimitsCommand = consoleFormCommand(
  "admin",
  tierLimitsForm,
  {
    prepare: latest,
    ask: (f, base) => ({
      command: publishConfigurationVersion,
      input: {
        document: withTierLimits(base.document, Object.fromEntries(TIER_LIMIT_FIELDS.map((k) => [k, f[k]])) as Record<TierLimitField, string>),
        effectiveAt: f.effectiveAt,
        note: f.note,
      },
      reason: f.note,
    }),
  },
  answer,
);

/** The funding terms: each window a whole number or empty (the setting's), the accounts one per line (empty: the setting's). */
const fundingForm = z.object({
  cardMinutes: optional.refine((t) => t === "" || /^\d+$/.test(t), "Whole minutes, such as 30 (empty: the setting's)."),
  bankTransferBusinessDays: optional.refine((t) => t === "" || /^\d+$/.test(t), "Whole business days, such as 2 (empty: the setting's)."),
  collectionAccounts: optional.refine(
    (t) => parseAccountLines(t) !== null,
    "One account per line: IBAN; BIC; currencies; time zone; name (DE89370400440532013000; COBADEFFXXX; EUR, USD; Europe/Berlin; Remit Collections).",
  ),
  effectiveAt,
  note,
});

const proposeFundingCommand = consoleFormCommand(
  "admin",
  fundingForm,
  {
    prepare: latest,
    ask: (f, base) => ({
      command: publishConfigurationVersion,
      input: {
        document: withFunding(base.document, Object.fromEntries(FUNDING_FIELDS.map((k) => [k, f[k]])) as Record<FundingField, string>),
        effectiveAt: f.effectiveAt,
        note: f.note,
      },
      reason: f.note,
    }),
  },
  answer,
);

/** The calendar changes, one line per country and kind ("MX closed 2027-01-05"); the version's schema checks countries and days. */
const calendarsForm = z.object({
  calendars: optional.refine(
    (t) => parseCalendarLines(t) !== null,
    "One line per country and kind, such as MX closed 2027-01-05, 2027-01-06 or DE open 2026-12-24.",
  ),
  effectiveAt,
  note,
});

const proposeCalendarsCommand = consoleFormCommand(
  "admin",
  calendarsForm,
  {
    prepare: latest,
    ask: (f, base) => ({
      command: publishConfigurationVersion,
      input: { document: withCalendars(base.document, f.calendars), effectiveAt: f.effectiveAt, note: f.note },
      reason: f.note,
    }),
  },
  answer,
);

/** The payout banks as a JSON list (the PAYOUT_BANKS setting's form; empty: the setting); the version's schema checks each bank. */
const payoutBanksForm = z.object({
  payoutBanks: optional.refine((t) => t === "" || parsePayoutBanksText(t) !== null, "A JSON list of banks, as the PAYOUT_BANKS setting takes it."),
  effectiveAt,
  note,
});

const proposePayoutBanksCommand = consoleFormCommand(
  "admin",
  payoutBanksForm,
  {
    prepare: latest,
    ask: (f, base) => ({
      command: publishConfigurationVersion,
      input: { document: withPayoutBanks(base.document, f.payoutBanks), effectiveAt: f.effectiveAt, note: f.note },
      reason: f.note,
    }),
  },
  answer,
);

const json = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    ctx.addIssue({ code: "custom", message: `Not JSON: ${(err as Error).message}` });
    return z.NEVER;
  }
});

const importVersionCommand = consoleFormCommand(
  "admin",
  z.object({ document: json, effectiveAt, note }),
  (f) => ({ command: publishConfigurationVersion, input: { document: f.document, effectiveAt: f.effectiveAt, note: f.note }, reason: f.note }),
  answer,
);

/** A refused form keeps what was typed beside its problems. */
const keepingValues =
  (run: (previous: FormState<unknown>, formData: FormData) => Promise<FormState<unknown>>) => async (previous: FormState<unknown>, formData: FormData) => {
    const state = await run(previous, formData);
    if (!state.error) return state;
    const values = Object.fromEntries([...formData].filter((e): e is [string, string] => typeof e[1] === "string" && !e[0].startsWith("$")));
    return { ...state, values };
  };

export async function proposePrice(previous: FormState<unknown>, formData: FormData): Promise<FormState<unknown>> {
  return keepingValues(proposePriceCommand)(previous, formData);
}

export async function proposeTierLimits(previous: FormState<unknown>, formData: FormData): Promise<FormState<unknown>> {
  return keepingValues(proposeTierLimitsCommand)(previous, formData);
}

export async function proposeFunding(previous: FormState<unknown>, formData: FormData): Promise<FormState<unknown>> {
  return keepingValues(proposeFundingCommand)(previous, formData);
}

export async function proposeCalendars(previous: FormState<unknown>, formData: FormData): Promise<FormState<unknown>> {
  return keepingValues(proposeCalendarsCommand)(previous, formData);
}

export async function proposePayoutBanks(previous: FormState<unknown>, formData: FormData): Promise<FormState<unknown>> {
  return keepingValues(proposePayoutBanksCommand)(previous, formData);
}

export async function importVersion(previous: FormState<unknown>, formData: FormData): Promise<FormState<unknown>> {
  return keepingValues(importVersionCommand)(previous, formData);
}
