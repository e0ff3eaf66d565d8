import type { Db } from "@/db";
import { config } from "@/lib/platform/config";
import { effectsOf, inUnit } from "@/lib/platform/unit-of-work";
import { clearFailures, lockScope, lockedForSeconds, recordFailure, type ScopedWindow } from "@/lib/identity";
import { checkSecondFactor, lockOperatorRow, recordSignIn } from "./accounts";
import { verifyOperator, type Operator } from "./records";

export type OperatorSignIn =
  { kind: "ok"; operator: Operator; sessionEpoch: number } | { kind: "wrong" } | { kind: "codeRequired" } | { kind: "locked"; retryAfterSeconds: number };

/** Who the audit log names for a lockout: no operator acted, the service did. */
const SERVICE_ACTOR: Operator = { id: "system", email: "system", name: "Remit Core", role: "admin" };

/**
 * Console sign-in with lockouts (numbers in docs/decisions.md): wrong passwords count per
 * operator email (known or not: the answer never reveals which) and per client address, as for
 * customer login. The check, the password verification and the count run under both scopes' locks
 * in one transaction, so parallel guesses are counted exactly. While locked even the right
 * password is refused. The failure that locks a scope writes an audit entry.
 * An operator with a second factor also gives a TOTP or recovery code: the right
 * password without one answers codeRequired (nothing counted: the form then asks the code); a
 * wrong code counts as a wrong password.
 */
export async function signInOperator(
  db: Db,
  input: { email: string; password: string; code?: string; clientAddress: string; now: Date },
): Promise<OperatorSignIn> {
  const c = config();
  const email = input.email.trim().toLowerCase();
  const windows: (ScopedWindow & { targetType: string; targetId: string })[] = [
    // Always this order (operator, then address), so two sign-ins never wait on each other crosswise.
    {
      scope: `console-login:${email}`,
      limit: c.CONSOLE_LOGIN_MAX_FAILURES,
      windowSeconds: c.CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS,
      targetType: "operator",
      targetId: email,
    },
    {
      scope: `console-login-address:${input.clientAddress}`,
      limit: c.CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: c.CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS,
      targetType: "client_address",
      targetId: input.clientAddress,
    },
  ];
  return inUnit(
    async ({ tx }) => {
      for (const w of windows) await lockScope(tx, w.scope);
      let wait = 0;
      for (const w of windows) wait = Math.max(wait, await lockedForSeconds(tx, w.scope, w, input.now));
      if (wait > 0) return { kind: "locked", retryAfterSeconds: wait };
      const operator = await verifyOperator(tx, email, input.password);
      const row = operator && (await lockOperatorRow(tx, operator.id));
      if (operator && row?.totpEnrolledAt && !input.code) return { kind: "codeRequired" };
      if (operator && row && (!row.totpEnrolledAt || (await checkSecondFactor(tx, operator.id, input.code ?? "", input.now)))) {
        // Only the operator's own count: signing in to another account must not clear an address.
        await clearFailures(tx, windows[0].scope);
        await recordSignIn(tx, operator.id, input.now);
        return { kind: "ok", operator, sessionEpoch: row.sessionEpoch };
      }
      for (const w of windows) {
        await recordFailure(tx, w.scope, input.now);
        const lockedFor = await lockedForSeconds(tx, w.scope, w, input.now);
        if (lockedFor > 0) {
          await effectsOf(tx).audit.record(
            {
              action: "operator.signIn.locked",
              targetType: w.targetType,
              targetId: w.targetId,
              after: { failures: w.limit, windowSeconds: w.windowSeconds, lockedForSeconds: lockedFor, clientAddress: input.clientAddress },
            },
            SERVICE_ACTOR,
          );
        }
      }
      return { kind: "wrong" };
    },
    { db },
  );
}
