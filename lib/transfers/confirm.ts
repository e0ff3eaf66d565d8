import { and, eq, sql } from "drizzle-orm";
import { preparedOn } from "@/db/prepared";
import type { Tx } from "@/db";
import { customers, deviceNonces, devices } from "@/db/schema";
import { config } from "@/lib/config";
import { unverifiedKid } from "@/lib/crypto/jose-strict/kid";
import { verifyDeviceAssertion } from "@/lib/devices/assertion/verify-device-assertion";
import { deviceByKid } from "@/lib/devices/lookup";
import { DomainError } from "@/lib/errors";
import { lockedForSecondsAny, recordFailure } from "@/lib/lockouts/failure-counter";
import { expireIfOverdue } from "./deadline";
import { openFundingSession } from "./funding";
import { transferInScope, transitionTransfer } from "./records";
import { transferMachine } from "./state-machine";
import { expectState } from "@/lib/state-machine/define";

const customerScope = (id: string) => `assertion:customer:${id}`;
const deviceScope = (id: string) => `assertion:device:${id}`;

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
  await preparedOn(tx, "confirm_customer_locked", (e) =>
    e
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.id, sql.placeholder("customerId")))
      .for("update")
      .prepare("confirm_customer_locked"),
  ).execute({ customerId: input.customerId });
  const row = await expireIfOverdue(tx, await transferInScope(tx, input.subscriptionId, input.transferId, true), now);
  transferMachine.next(row.state, "confirm");

  const kid = unverifiedKid(input.deviceAssertion);
  const named = kid ? await deviceByKid(tx, kid) : undefined;
  // An active device of the caller named by the assertion answers "has an active device" unread.
  const namesActive = named?.subscriptionId === input.subscriptionId && named.status === "ACTIVE";
  const [active] = namesActive
    ? [named]
    : await tx
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.subscriptionId, input.subscriptionId), eq(devices.status, "ACTIVE")))
        .limit(1);
  if (!active)
    throw new DomainError("device.notRegistered", {
      message: "Register a device before confirming transfers.",
      remediation: "register_device",
    });

  const namedDevice = named?.subscriptionId === input.subscriptionId ? named.id : null;
  const scopes = [customerScope(input.customerId), ...(namedDevice ? [deviceScope(namedDevice)] : [])];
  const locked = await lockedForSecondsAny(tx, scopes, window, now);
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

  const funding = await transitionTransfer(tx, row, "confirm", now, { confirmedAt: now, challenge: null, challengeExpiresAt: null });
  const fundingSession = await openFundingSession(tx, funding, now);
  return {
    transferId: row.id,
    transferStatus: expectState(funding, "funding").state,
    confirmedAt: now.toISOString(),
    nextStep: "OPEN_FUNDING_WEBVIEW" as const,
    fundingSession,
  };
}
