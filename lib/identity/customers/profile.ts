import { and, eq, ne, sql } from "drizzle-orm";
import { prepared } from "@/db/prepared";
import type { Executor, Tx } from "@/db";
import { customers, loginIdentifiers } from "@/db/schema";
import type { ReadWithCaller } from "@/lib/identity/auth/authenticate";
import { maskIdentifier } from "@/lib/identity/auth/identifiers";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { DomainError, type ValidationCode } from "@/lib/platform/errors";
import type { Language } from "@/lib/platform/i18n/language";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { customerAddressKey } from "@/lib/identity/identifiers/normal-form";
import { matchingForm } from "../identifiers/name-form";
import { requestRating } from "./rating-request";
import { nextStepForCustomer } from "./next-step";
import { lockCustomer } from "./status-change";
import { customerMayMoveMoney, customerStatusMachine, type CustomerStatus } from "./status-machine";
import { effectsOf } from "@/lib/platform/unit-of-work";

/** A postal address as the domain keeps it (alpha-3 country). */
export interface Address {
  addressLine1: string;
  addressLine2?: string;
  city: string;
  region?: string;
  postalCode?: string;
  country: string;
}

/** The customer's profile attributes (spec 2.2), already well-formed: names, dates and codes checked by the caller's schema. */
export interface ProfileInput {
  firstName: string;
  lastName: string;
  middleNames?: string[];
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  nationality: string;
  residenceCountry: string;
  residenceAddress: Address;
  gender?: string;
  placeOfBirth?: { city: string; country: string };
  preferredLanguage?: Language;
}

const fieldError = (code: ValidationCode, field: string, message: string, extra: Record<string, unknown> = {}) =>
  new DomainError(code, { message, details: { ...extra, issues: [{ field, code, message }] }, hint: "fix_request" });

function ageOn(dateOfBirth: string, now: Date): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number);
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age -= 1;
  return age;
}

/** The rules of spec 2.2 that need configuration or the clock (the wire schema checks the rest). */
function checkProfileRules(p: ProfileInput, now: Date): void {
  const c = config();
  if (ageOn(p.dateOfBirth, now) < 18) {
    throw fieldError("validation.fieldFormatInvalid", "dateOfBirth", "The customer must be at least 18 years old.", { rule: "MIN_AGE_18" });
  }
  if (c.SANCTIONED_NATIONALITIES.includes(p.nationality)) {
    throw fieldError("validation.nationalityNotAccepted", "nationality", "This nationality cannot be accepted.");
  }
  if (p.residenceCountry !== p.residenceAddress.country) {
    throw fieldError("validation.fieldInvalid", "residenceAddress.country", "residenceAddress.country must equal residenceCountry.");
  }
  if (!c.ACCEPTED_RESIDENCE_COUNTRIES.includes(p.residenceCountry)) {
    throw fieldError("validation.residenceCountryNotAccepted", "residenceCountry", "Customers resident in this country cannot be accepted.");
  }
  if (c.REGION_REQUIRED_COUNTRIES.includes(p.residenceCountry) && !p.residenceAddress.region) {
    throw fieldError("validation.fieldMissing", "residenceAddress.region", "region is required for this country of residence.");
  }
}

/** Normalised first name, last name, date of birth and nationality (decisions section 4). */
export function identityKeyOf(p: Pick<ProfileInput, "firstName" | "lastName" | "dateOfBirth" | "nationality">): string {
  return [matchingForm(p.firstName), matchingForm(p.lastName), p.dateOfBirth, p.nationality].join("|");
}

/**
 * POST /v1/core/profile. Idempotent within PENDING (the pipeline replays a same-key retry);
 * a new key updates the profile while PENDING, and is 409 customer.profileLocked after.
 * Identity resolution links this customer to an earlier record of the same person; the answer
 * never depends on whether one was found.
 */
export async function submitProfile(tx: Tx, input: { customerId: string; profile: ProfileInput; now: Date }) {
  const customer = await lockCustomer(tx, input.customerId);
  customerStatusMachine.next(customer.status, "profile.submitted");
  checkProfileRules(input.profile, input.now);
  const identityKey = identityKeyOf(input.profile);
  const [match] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.identityKey, identityKey), ne(customers.id, customer.id)))
    .limit(1);
  const { preferredLanguage, ...profile } = input.profile;
  const [updated] = await tx
    .update(customers)
    .set({
      profile,
      identityKey,
      addressKey: customerAddressKey(profile),
      linkedCustomerId: match?.id ?? null,
      preferredLanguage: preferredLanguage ?? customer.preferredLanguage,
      updatedAt: input.now,
    })
    .where(eq(customers.id, customer.id))
    .returning();
  // Sanctions screening runs after each submit (spec 4.1 rule 1), and PEP screening beside it.
  for (const kind of ["customers.screen", "customers.screenPep"] as const) {
    await effectsOf(tx).jobs.schedule(
      kind,
      { customerId: customer.id },
      {
        runAt: addSeconds(input.now, config().SCREENING_DELAY_MS / 1000),
        dedupeKey: dedupeKey(kind, customer.id),
      },
    );
  }
  // Nationality and residence are factors of the customer's risk rating.
  await requestRating(tx, customer.id, input.now, "customer.profile");
  return { status: updated.status, kycRequired: updated.kycStatus !== "COMPLETED", nextStep: nextStepForCustomer(updated) };
}

/**
 * transactability and customerActionExpected are derived, never stored (spec 2.2). Spec 2.2's
 * transactability counts RESTRICTED too (a remediation the customer can finish), beyond the
 * customers who may move money now (customerMayMoveMoney).
 */
export function transactable(status: CustomerStatus, kycStatus: string): boolean {
  return (customerMayMoveMoney(status) || status === "RESTRICTED") && kycStatus === "COMPLETED";
}

/** Nothing the customer can do moves a BLOCKED or CLOSED customer (KYC is refused): no prompts. */
export function customerActionExpected(status: string, kycStatus: string, hasProfile: boolean): boolean {
  if (status === "BLOCKED" || status === "CLOSED") return false;
  return !hasProfile || status === "RESTRICTED" || ["NOT_STARTED", "IN_PROGRESS", "REMEDIATION_REQUIRED"].includes(kycStatus);
}

/** GET /v1/core/profile. */
export async function readProfile(tx: Executor, input: { customerId: string; subscriptionId: string }) {
  // The customer and its login identifiers in one statement (a row per identifier): one round
  // trip, and one snapshot outside a transaction.
  const rows = await prepared(tx, "profile_with_identifiers", (e) =>
    e
      .select({ customer: customers, identifier: loginIdentifiers })
      .from(customers)
      .leftJoin(loginIdentifiers, eq(loginIdentifiers.subscriptionId, sql.placeholder("subscriptionId")))
      .where(eq(customers.id, sql.placeholder("customerId")))
      .orderBy(loginIdentifiers.createdAt)
      .prepare("profile_with_identifiers"),
  ).execute({ customerId: input.customerId, subscriptionId: input.subscriptionId });
  return profileOf(rows, input.subscriptionId);
}

type ProfileRow = { customer: typeof customers.$inferSelect; identifier: typeof loginIdentifiers.$inferSelect | null };

/**
 * readProfile in its caller's statement: the caller's statement already joins the
 * token's customer (its gate fields), so the read adds the customer's columns and the
 * subscription's login identifiers, a row per identifier.
 */
export const profileWithCaller: ReadWithCaller<unknown, ReturnType<typeof profileOf>> = {
  name: "profile_with_identifiers",
  fields: { customer: customers, identifier: loginIdentifiers },
  join: (query, caller) => query.leftJoin(loginIdentifiers, eq(loginIdentifiers.subscriptionId, caller.subscriptionId)).orderBy(loginIdentifiers.createdAt),
  values: () => ({}),
  // The caller was accepted, so its customer and subscription exist.
  answer: (rows) => profileOf(rows as unknown as ProfileRow[], rows[0].subscriptionId as string),
};

function profileOf(rows: ProfileRow[], subscriptionId: string) {
  const customer = rows[0].customer;
  const ids = rows.flatMap((r) => (r.identifier ? [r.identifier] : []));
  return {
    // The caller's own subscription (resolved from the token, so it exists).
    subscriptionId,
    status: customer.status,
    statusOperationalHint: customer.statusOperationalHint ?? null,
    kycStatus: customer.kycStatus,
    transactability: transactable(customer.status, customer.kycStatus),
    customerActionExpected: customerActionExpected(customer.status, customer.kycStatus, customer.profile !== null),
    profile: customer.profile ? { ...customer.profile, preferredLanguage: customer.preferredLanguage } : null,
    identifiers: ids.map((i) => ({
      identifierId: i.id,
      identifierType: i.type,
      identifierMasked: maskIdentifier({ type: i.type, value: i.value }),
      verifiedAt: i.verifiedAt.toISOString(),
      // The last identifier cannot be removed: the customer would lose access.
      canRemove: ids.length > 1,
    })),
  };
}
