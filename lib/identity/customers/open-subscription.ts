import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { customers, loginIdentifiers, subscriptions } from "@/db/schema";
import type { LoginIdentifier } from "@/lib/identity/auth/identifiers";
import { identifierMatchKey } from "@/lib/identity/identifiers/normal-form";
import { subscriptionMachine } from "@/lib/partners";
import { NONE } from "@/lib/platform/state-machine/define";

/**
 * A new partner-customer relationship for a verified identifier: a subscription and a PENDING
 * customer with no profile yet. Identity resolution at profile submit may later link the
 * subscription to an existing person (decisions section 4).
 */
export async function openSubscription(
  tx: Tx,
  input: { partnerId: string; identifier: LoginIdentifier; passwordHash: string; now: Date },
): Promise<{ subscriptionId: string; customerId: string }> {
  const customerId = newId("cus");
  const subscriptionId = newId("sub");
  await tx.insert(customers).values({ id: customerId, status: "PENDING", kycStatus: "NOT_STARTED", createdAt: input.now, updatedAt: input.now });
  await tx.insert(subscriptions).values({
    id: subscriptionId,
    partnerId: input.partnerId,
    customerId,
    status: subscriptionMachine.next(NONE, "open").to,
    passwordHash: input.passwordHash,
    createdAt: input.now,
    updatedAt: input.now,
  });
  await tx.insert(loginIdentifiers).values({
    id: newId("idf"),
    partnerId: input.partnerId,
    subscriptionId,
    type: input.identifier.type,
    value: input.identifier.value,
    matchKey: identifierMatchKey(input.identifier),
    verifiedAt: input.now,
    createdAt: input.now,
  });
  return { subscriptionId, customerId };
}
