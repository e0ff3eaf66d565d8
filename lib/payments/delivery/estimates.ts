/**
 * Delivery estimates (Regulation E 1005.31(b)(2)(ii) "date available", PSD2's
 * maximum execution time): when the money is available to the recipient, from versioned data per
 * corridor and payout method (data/delivery-estimates) and both countries' business calendars.
 * Checked at load: a corridor or method without an estimate stops the process at start.
 */
import { z } from "zod";
import rawEstimates from "@/data/delivery-estimates/v1.json";
import { corridorByCode, listCorridors, type Corridor } from "@/lib/payments/corridors/corridors";
import { businessDayFrom, isBusinessDay, localTime, nextDay, zonedInstant } from "./business-calendar";

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM");
const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, "an IANA time zone");

const methodEstimate = z.strictObject({
  cutOff: clockTime,
  processing: z.union([z.strictObject({ businessDays: z.number().int().min(0).max(10) }), z.strictObject({ hours: z.number().int().min(1).max(72) })]),
});

const fileSchema = z.strictObject({
  $comment: z.string().optional(),
  version: z.string().regex(/^v\d+$/),
  corridors: z.array(
    z.strictObject({
      code: z.string(),
      originTimeZone: timeZone,
      destinationTimeZone: timeZone,
      businessHours: z.strictObject({ opens: clockTime, closes: clockTime }),
      methods: z.record(z.string(), methodEstimate),
    }),
  ),
});

type EstimateFile = z.infer<typeof fileSchema>;

/** Validates an estimate file against the corridor table: every corridor's every method has one. Exported for tests. */
export function loadEstimateFile(raw: unknown): EstimateFile {
  const file = fileSchema.parse(raw);
  const problems: string[] = [];
  for (const corridor of listCorridors()) {
    const entry = file.corridors.find((e) => e.code === corridor.code);
    if (!entry) problems.push(`${corridor.code}: no delivery estimate`);
    else for (const method of corridor.payoutMethods) if (!entry.methods[method]) problems.push(`${corridor.code} ${method}: no delivery estimate`);
  }
  for (const entry of file.corridors) {
    if (!corridorByCode(entry.code)) problems.push(`${entry.code}: not a corridor`);
    if (entry.businessHours.opens >= entry.businessHours.closes) problems.push(`${entry.code}: business hours close before they open`);
  }
  if (problems.length) throw new Error(`Invalid delivery estimates:\n${problems.join("\n")}`);
  return file;
}

const table = loadEstimateFile(rawEstimates);
export const DELIVERY_ESTIMATES_VERSION = table.version;

/**
 * What an estimate is counted from (transfer detail, estimatedDeliveryBasis): IF_FUNDED_NOW
 * before funding (quote, disclosure, a transfer not yet funded), FUNDED from the funding, ON_HOLD
 * when a review or a compliance hold stops it (counted as if released now: it will move later).
 */
export const DELIVERY_BASES = ["IF_FUNDED_NOW", "FUNDED", "ON_HOLD"] as const;
export type DeliveryBasis = (typeof DELIVERY_BASES)[number];

/**
 * When money funded at `from` is available to the recipient of `corridorCode` by `payoutMethod`
 * (corridor payout method names: bank_account, cash_pickup...), its countries' business days as
 * `corridor` defines them: the quote's or the transfer's own configuration version's
 * (corridorOfQuote, corridorOfTransfer), so a transfer keeps the estimate it was accepted under
 * when a later version drops its corridor; the version in force without it. Undefined for a pair
 * without data.
 */
export function estimateDeliveryBy(
  corridorCode: string,
  payoutMethod: string,
  from: Date,
  corridor: Corridor | undefined = corridorByCode(corridorCode),
): Date | undefined {
  const entry = table.corridors.find((e) => e.code === corridorCode);
  const method = entry?.methods[payoutMethod];
  if (!entry || !method || !corridor) return undefined;
  const origin = corridor.originCountry.alpha2;
  const destination = corridor.destinationCountry.alpha2;
  const { opens, closes } = entry.businessHours;

  // Processing starts on an origin business day before the cut-off, else at the next one's opening.
  const local = localTime(from, entry.originTimeZone);
  let start = from;
  if (!isBusinessDay(origin, local.day) || local.time >= method.cutOff) {
    start = zonedInstant(businessDayFrom(origin, nextDay(local.day)), opens, entry.originTimeZone);
  } else if (local.time < opens) {
    start = zonedInstant(local.day, opens, entry.originTimeZone);
  }

  if ("hours" in method.processing) return new Date(start.getTime() + method.processing.hours * 3_600_000);

  // Bank payouts: the close of the Nth destination business day after the start (0: the same one).
  const there = localTime(start, entry.destinationTimeZone);
  let day = businessDayFrom(destination, there.day);
  if (day === there.day && there.time >= closes) day = businessDayFrom(destination, nextDay(day));
  for (let n = 0; n < method.processing.businessDays; n++) day = businessDayFrom(destination, nextDay(day));
  return zonedInstant(day, closes, entry.destinationTimeZone);
}

/** The date three business days of the origin country after `from` (a refund's latest completion); `corridor` as in estimateDeliveryBy. */
export function businessDaysAfter(corridorCode: string, from: Date, days: number, corridor: Corridor | undefined = corridorByCode(corridorCode)): Date {
  const entry = table.corridors.find((e) => e.code === corridorCode);
  if (!entry || !corridor) return new Date(from.getTime() + days * 86_400_000);
  const local = localTime(from, entry.originTimeZone);
  let day = local.day;
  for (let n = 0; n < days; n++) day = businessDayFrom(corridor.originCountry.alpha2, nextDay(day));
  // The same wall-clock time on that day, so "3 business days" is never more than that.
  return zonedInstant(day, local.time, entry.originTimeZone);
}
