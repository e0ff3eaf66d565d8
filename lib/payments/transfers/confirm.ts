import { and, count, desc, eq, gt, min, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { preparedOn } from "@/db/prepared";
import type { Tx } from "@/db";
import { customers, deviceNonces, devices, failureEvents, transfers } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { unverifiedKid } from "@/lib/platform/crypto/jose-strict/kid";
import { DEVICE_ASSERTION_JWS_POLICY, verifyDeviceAssertion, deviceByKid, lockedForSecondsOf, recordFailure } from "@/lib/identity";
import { payloadObject, splitCompactJws } from "@/lib/platform/crypto/jose-strict/compact-jws";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { DomainError } from "@/lib/platform/errors";
import { expireIfOverdue } from "./deadline";
import { latestVersionSql, refreshVersions } from "@/lib/payments/corridors/versions";
import { openFundingSession } from "./funding";
import { transferNotFound, transitionTransfer } from "./records";
import { transferMachine } from "./state-machine";
import { expectState } from "@/lib/platform/state-machine/define";

const DEVICE_SCOPE = "assertion:device:";
const customerScope = (id: string) => `assertion:customer:${id}`;
const deviceScope = (id: string) => `${DEVICE_SCOPE}${id}`;

/** The device the assertion names, joined to the transfer by deviceByKid's choice of id. */
const kidDevice = alias(devices, "kid_device");

/**
 * After the customer's lock, one prepared statement (four or five round trips before):
 * the transfer (locked), the device the assertion's kid names (deviceByKid's choice), whether the
 * subscription has an active device, and the failures counted in the lockout window under the
 * customer's scope and the named device's (when it is the caller's), and the highest configuration
 * version number (the card window of the session it opens). The counts are read after the
 * customer's lock is held, as before: this statement's snapshot sees every failure counted by the
 * confirmations before it, and no other can count one for these scopes until this one commits.
 * The same holds for whether the named device has used the assertion's (unverified) nonce: a nonce
 * is spent only by a confirmation that verified the device as the subscription's, so under this
 * customer's lock (see consumeNonce below).
 */
const confirmRows = (tx: Tx) =>
  preparedOn(tx, "confirm_rows", (e) => {
    const subscriptionId = sql.placeholder("subscriptionId");
    const since = sql.placeholder("since");
    const namedId = e
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.kid, sql.placeholder("kid")))
      .orderBy(sql`case when ${devices.status} = 'ACTIVE' then 0 else 1 end`, desc(devices.registeredAt), desc(devices.id))
      .limit(1);
    const activeDevice = e
      .select({ one: sql`1` })
      .from(devices)
      .where(and(eq(devices.subscriptionId, subscriptionId), eq(devices.status, "ACTIVE")));
    const inWindow = (scope: SQL) => and(eq(failureEvents.scope, scope), gt(failureEvents.occurredAt, since));
    const failures = (scope: SQL) => sql`(${e.select({ n: count() }).from(failureEvents).where(inWindow(scope))})`.mapWith(Number);
    const oldest = (scope: SQL) =>
      sql`(${e
        .select({ oldest: min(failureEvents.occurredAt) })
        .from(failureEvents)
        .where(inWindow(scope))})`.mapWith(failureEvents.occurredAt);
    const nonceUsed = e
      .select({ one: sql`1` })
      .from(deviceNonces)
      .where(and(eq(deviceNonces.deviceId, kidDevice.id), sql`${deviceNonces.nonce} = ${sql.placeholder("nonce")}::text`));
    const customer = sql`${sql.placeholder("customerScope")}::text`;
    // The named device's scope counts only when the device is the caller's (namedDevice below).
    const device = sql`case when ${kidDevice.subscriptionId} = ${subscriptionId} then ${DEVICE_SCOPE}::text || ${kidDevice.id} end`;
    return e
      .select({
        transfer: transfers,
        named: kidDevice,
        hasActiveDevice: sql<boolean>`exists(${activeDevice})`.mapWith(Boolean),
        customerFailures: failures(customer),
        customerOldest: oldest(customer),
        deviceFailures: failures(device),
        deviceOldest: oldest(device),
        nonceUsed: sql<boolean>`exists(${nonceUsed})`.mapWith(Boolean),
        // The highest configuration version: the card's window of the session opened below is the version in force's.
        configurationVersion: latestVersionSql(),
      })
      .from(transfers)
      .leftJoin(kidDevice, eq(kidDevice.id, sql`(${namedId})`))
      .where(and(eq(transfers.id, sql.placeholder("transferId")), eq(transfers.subscriptionId, subscriptionId)))
      .for("update", { of: transfers })
      .prepare("confirm_rows");
  });

/** The nonce of the assertion's payload, unverified (as the verification will parse it), or null. */
function unverifiedNonce(token: string): string | null {
  try {
    const nonce = payloadObject(splitCompactJws(token, DEVICE_ASSERTION_JWS_POLICY))?.nonce;
    return typeof nonce === "string" ? nonce : null;
  } catch {
    return null;
  }
}

function lockout(seconds: number): DomainError {
  return new DomainError("device.assertionLockout", {
    message: "Too many failed confirmations. Wait before trying again.",
    retryAfterSeconds: seconds,
    remediation: "retry_later",
    details: { retryAfterSeconds: seconds },
  });
}

/**
 * POST /v1/core/transfers/{id}/confirm (spec 5.3): the device-bound release of funds. The
 * customer row is locked first, so confirmations of one customer are counted one at a time and
 * parallel bad assertions can never exceed the lockout threshold.
 */
export async function confirmTransfer(tx: Tx, input: { subscriptionId: string; customerId: string; transferId: string; deviceAssertion: string; now: Date }) {
  const { now } = input;
  const c = config();
  const window = { limit: 5, windowSeconds: c.LOCKOUT_SECONDS };
  const kid = unverifiedKid(input.deviceAssertion);
  const presentedNonce = unverifiedNonce(input.deviceAssertion);
  // One round trip: the customer's lock, then the locking read sent behind it, whose snapshot
  // PostgreSQL takes when it starts, once the lock is held (as when it was sent after).
  const [, [found]] = await Promise.all([
    preparedOn(tx, "confirm_customer_locked", (e) =>
      e
        .select({ id: customers.id })
        .from(customers)
        .where(eq(customers.id, sql.placeholder("customerId")))
        // NO KEY UPDATE, not UPDATE: it serialises confirmations as before, but leaves the KEY SHARE
        // that a foreign key check takes (an accept inserting this customer's transfer while it
        // holds the subscription's lock) unblocked: with UPDATE the two deadlocked when the
        // confirmation then counted its event on that subscription (the bench's journey at 32/s).
        .for("no key update")
        .prepare("confirm_customer_locked"),
    ).execute({ customerId: input.customerId }),
    confirmRows(tx).execute({
      transferId: input.transferId,
      subscriptionId: input.subscriptionId,
      kid: kid ?? null,
      customerScope: customerScope(input.customerId),
      // As text: a placeholder in a subquery of the select list is bound without its column's encoder.
      since: addSeconds(now, -window.windowSeconds).toISOString(),
      nonce: presentedNonce,
    }),
  ]);
  if (!found) throw transferNotFound();
  const row = await expireIfOverdue(tx, found.transfer, now);
  transferMachine.next(row.state, "confirm");

  const named = kid ? (found.named ?? undefined) : undefined;
  // An active device of the caller named by the assertion answers "has an active device" unread.
  const namesActive = named?.subscriptionId === input.subscriptionId && named.status === "ACTIVE";
  if (!namesActive && !found.hasActiveDevice)
    throw new DomainError("device.notRegistered", {
      message: "Register a device before confirming transfers.",
      remediation: "register_device",
    });

  const namedDevice = named?.subscriptionId === input.subscriptionId ? named.id : null;
  const counted = [
    { n: found.customerFailures, oldest: found.customerOldest },
    ...(namedDevice ? [{ n: found.deviceFailures, oldest: found.deviceOldest }] : []),
  ];
  const locked = lockedForSecondsOf(counted, window, now);
  if (locked > 0) throw lockout(locked);

  const latestChallenge = row.challenge && row.challengeExpiresAt && row.challengeExpiresAt.getTime() > now.getTime() ? row.challenge : null;
  try {
    await verifyDeviceAssertion(input.deviceAssertion, {
      findDeviceByKid: async (k) => {
        // The kid read above is the one verified: its row is not read twice.
        const d = k === kid ? named : await deviceByKid(tx, k);
        return d ? { deviceId: d.id, customerRef: d.subscriptionId, status: d.status, publicJwk: d.publicJwk } : null;
      },
      // Single use (verification 4): spent once presented in an authentic, matching, fresh assertion.
      consumeNonce: async (deviceId, nonce) => {
        // The nonce read above with the named device (its insert was a statement of its
        // own). Every confirmation that spends a nonce of this device holds this customer's lock
        // (the device is the subscription's: verification 2), so the read is current and no other
        // can spend it before this unit commits; the insert goes with the effects at commit, the
        // failure path's too (keepingChanges). Its unique index still refuses a repeat there.
        if (named && deviceId === named.id && nonce === presentedNonce) {
          if (found.nonceUsed) return false;
          await effectsOf(tx).atCommit(tx.insert(deviceNonces).values({ deviceId, nonce, usedAt: now }));
          return true;
        }
        const [fresh] = await tx.insert(deviceNonces).values({ deviceId, nonce, usedAt: now }).onConflictDoNothing().returning();
        return fresh !== undefined;
      },
      customerRef: input.subscriptionId,
      transfer: { transferId: row.id, amount: row.originAmount, currency: row.originCurrency, beneficiaryId: row.beneficiaryId },
      latestChallenge,
      now,
      maxAgeSeconds: c.ASSERTION_MAX_AGE_SECONDS,
    });
  } catch (err) {
    if (err instanceof DomainError && err.code === "device.assertionInvalid") {
      // Count the failure against the customer and the device it named, and keep the count.
      await recordFailure(tx, customerScope(input.customerId), now);
      if (namedDevice) await recordFailure(tx, deviceScope(namedDevice), now);
      throw err.keepingChanges();
    }
    throw err;
  }

  // Confirmed despite a payee verification warning: recorded (it matters for an error claim).
  const warned = row.payeeVerification && (row.payeeVerification.result === "NO_MATCH" || row.payeeVerification.result === "CLOSE_MATCH");
  const funding = await transitionTransfer(tx, row, "confirm", now, {
    confirmedAt: now,
    challenge: null,
    challengeExpiresAt: null,
    ...(warned ? { payeeVerification: { ...row.payeeVerification!, proceededAt: now.toISOString() } } : {}),
  });
  await refreshVersions(tx, found.configurationVersion);
  const fundingSession = await openFundingSession(tx, funding, now);
  return {
    transferId: row.id,
    transferStatus: expectState(funding, "funding").state,
    confirmedAt: now.toISOString(),
    nextStep: "OPEN_FUNDING_WEBVIEW" as const,
    fundingSession,
  };
}
