/**
 * Console sign-in lockout: wrong passwords count per operator and per client
 * address, exactly under parallel attempts; a locked operator is refused even with the right
 * password until the window ends; the lockout is in the audit log. Drives next-auth's credentials
 * callback over HTTP as the sign-in form does (CSRF token from /api/auth/csrf, then a POST).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, advanceClock, uniqueEmail } from "../support";

/** The sandbox's seeded administrator (OPERATOR_EMAIL / OPERATOR_PASSWORD defaults). */
const ADMIN = { email: "admin@example.com", password: "sandbox-operator-password" };
/** CONSOLE_LOGIN_MAX_FAILURES and CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS defaults. */
const CAP = 5;
const WINDOW_SECONDS = 900;

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]);

async function csrf(): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${BASE_URL}/api/auth/csrf`);
  assert.equal(res.status, 200);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { token: csrfToken, cookie: cookiesOf(res).join("; ") };
}

interface SignIn {
  status: number;
  /** next-auth's error value: CredentialsSignin, RateLimited:<seconds>, or null on success. */
  error: string | null;
  cookie: string;
}

async function signIn(email: string, password: string, session?: { token: string; cookie: string }): Promise<SignIn> {
  const { token, cookie } = session ?? (await csrf());
  const res = await fetch(`${BASE_URL}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ csrfToken: token, email, password, json: "true" }),
    redirect: "manual",
  });
  const { url } = (await res.json()) as { url: string };
  const error = new URL(url, BASE_URL).searchParams.get("error");
  return { status: res.status, error, cookie: [cookie, ...cookiesOf(res)].join("; ") };
}

const waitOf = (error: string | null) => Number(/^RateLimited:(\d+)$/.exec(error ?? "")?.[1] ?? NaN);

test("40 parallel wrong passwords for one operator: exactly 5 are checked, the rest locked; the right password is refused until the window ends; the lockout is audited", async () => {
  const session = await csrf();
  const results = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(ADMIN.email, `wrong password ${i}`, session)));
  const errors = results.map((r) => (r.error?.startsWith("RateLimited:") ? "RateLimited" : r.error));
  assert.deepEqual(errors.sort(), [...Array(CAP).fill("CredentialsSignin"), ...Array(40 - CAP).fill("RateLimited")], errors.join(","));
  for (const r of results) assert.equal(r.status, 401);
  for (const r of results.filter((x) => x.error !== "CredentialsSignin")) {
    const wait = waitOf(r.error);
    assert.ok(wait > 0 && wait <= WINDOW_SECONDS, `wait ${r.error}`);
  }

  // Locked: the right password is refused too, with the wait.
  const refused = await signIn(ADMIN.email, ADMIN.password);
  assert.equal(refused.status, 401);
  assert.ok(waitOf(refused.error) > WINDOW_SECONDS - 120, `still locked for most of the window: ${refused.error}`);

  await advanceClock(WINDOW_SECONDS + 1);
  const ok = await signIn(ADMIN.email, ADMIN.password);
  assert.equal(ok.status, 200, `after the window: ${ok.error}`);
  assert.equal(ok.error, null);

  // The audit log (admin-only page) shows the lockout of this operator.
  const audit = await fetch(`${BASE_URL}/console/audit?action=operator.signIn.locked&q=${encodeURIComponent(ADMIN.email)}`, {
    headers: { cookie: ok.cookie },
    redirect: "manual",
  });
  assert.equal(audit.status, 200);
  const html = (await audit.text()).replaceAll("<!-- -->", "");
  assert.match(html, /operator\.signIn\.locked/);
  assert.match(html, /operator:admin@example\.com/);
  assert.match(html, /&quot;failures&quot;:5/);
});

test("an unknown operator email locks the same way (no existence oracle), and a success does not unlock another operator", async () => {
  const ghost = uniqueEmail("ghost-operator");
  const session = await csrf();
  const errors: (string | null)[] = [];
  for (let i = 0; i < CAP + 1; i++) errors.push((await signIn(ghost, "whatever password", session)).error);
  assert.deepEqual(errors.slice(0, CAP), Array(CAP).fill("CredentialsSignin"));
  assert.ok(waitOf(errors[CAP]) > 0, `sixth: ${errors[CAP]}`);
  // The admin signing in from the same address clears only the admin's own count.
  assert.equal((await signIn(ADMIN.email, ADMIN.password)).status, 200);
  assert.ok(waitOf((await signIn(ghost, "whatever password")).error) > 0);
});

test("the sign-in page shows a lockout's wait (next-auth redirects a refused sign-in there with ?error=)", async () => {
  const res = await fetch(`${BASE_URL}/console/login?error=RateLimited%3A840`);
  assert.equal(res.status, 200);
  const html = (await res.text()).replaceAll("<!-- -->", "");
  assert.match(html, /role="alert"[^>]*>Too many failed sign-ins\. Try again in 14 minutes\./);
  const wrong = (await (await fetch(`${BASE_URL}/console/login?error=CredentialsSignin`)).text()).replaceAll("<!-- -->", "");
  assert.match(wrong, /Wrong email or password\./);
});
