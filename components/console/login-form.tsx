"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore, type FormEvent } from "react";
import { SECOND_FACTOR_REQUIRED, signInErrorMessage } from "@/lib/operations/console/sign-in-errors";

const noSubscription = () => () => {};
/** False in the server render and until hydration, true once React handles events on the page. */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/**
 * next-auth answers a sign-in whose CSRF token does not match its cookie with 200 and a URL back to
 * its sign-in page (?csrf=true), not with an error. It happens on a first visit when a concurrent
 * first request (SessionProvider's /session) replaced the cookie after /csrf was read.
 */
const csrfRejected = (url: string | null | undefined) => !!url && new URL(url, window.location.href).searchParams.has("csrf");

/**
 * Console sign-in: next-auth's credentials flow (it fetches and sends the CSRF token). An operator
 * with a second factor is asked for the code after the right password.
 */
export function LoginForm({ initialError = null }: { initialError?: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  const [needCode, setNeedCode] = useState(false);
  // Before hydration a submit would be the browser's native GET: the password in the URL.
  const hydrated = useHydrated();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const code = form.get("code") ?? "";
    const attempt = () => signIn("credentials", { email: form.get("email"), password: form.get("password"), code, redirect: false });
    let res = await attempt();
    // The cookie has settled by now: one retry gets a matching token.
    if (res?.ok && !res.error && csrfRejected(res.url)) res = await attempt();
    setBusy(false);
    // ok alone is not success: next-auth reports some refusals as ok with an error or a sign-in URL.
    if (res?.ok && !res.error && res.url && !csrfRejected(res.url)) router.push("/console");
    else if (res?.error === SECOND_FACTOR_REQUIRED) {
      setNeedCode(true);
      setError(signInErrorMessage(res.error));
    }
    // A lockout comes back as error "RateLimited:<seconds>": the message says how long to wait.
    else setError(res?.ok && !res.error ? "Sign-in could not be completed. Please try again." : signInErrorMessage(res?.error ?? "CredentialsSignin"));
  }

  const field = "mt-1 block w-full rounded border border-slate-300 px-3 py-2 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-200";
  return (
    <form onSubmit={submit} className="space-y-4">
      {error && (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <label className="block text-sm font-medium">
        Email
        <input name="email" type="email" autoComplete="username" required className={field} />
      </label>
      <label className="block text-sm font-medium">
        Password
        <input name="password" type="password" autoComplete="current-password" required className={field} />
      </label>
      {needCode && (
        <label className="block text-sm font-medium">
          Authentication code
          <input name="code" autoComplete="one-time-code" inputMode="numeric" required autoFocus className={field} />
        </label>
      )}
      <button
        disabled={busy || !hydrated}
        className="w-full rounded bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-700 focus:outline-none focus:ring-4 focus:ring-slate-300 disabled:opacity-60"
      >
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
