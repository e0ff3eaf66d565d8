import { awaitStatus, customerWithProfile, usaProfile, type Customer } from "../support";
/** Helpers of the customer (profile, KYC, screening, events) integration tests (not a test file). */

/**
 * Screening barrier: screening jobs run in due order, so once a sanctioned customer submitted
 * after `c` is BLOCKED, `c`'s own screening (due earlier) has run too.
 */
export async function awaitScreeningOf(_c: Customer): Promise<void> {
  const sentinel = await customerWithProfile(usaProfile({ firstName: "Viktor", lastName: "Sanctionov", dateOfBirth: "1970-01-01" }));
  await awaitStatus(sentinel, "BLOCKED");
}

/** GET a webview URL as a browser would. */
export async function openWebview(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { accept: "text/html", ...headers } });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

export const EXPIRED_PAGE = 'data-testid="webview-expired"';
