/**
 * The sign-in lockout travels from authorize() to the page as next-auth's `error` value
 * (?error=RateLimited:<seconds>): the wait, like a Retry-After, for the page to show.
 */
export const signInLockedError = (retryAfterSeconds: number) => `RateLimited:${Math.max(1, Math.ceil(retryAfterSeconds))}`;

/** authorize()'s answer to the right password of an operator with a second factor: the form asks the code. */
export const SECOND_FACTOR_REQUIRED = "SecondFactorRequired";

/** The wait in seconds carried by a next-auth error value, or null for any other error. */
export function lockedSecondsOf(error: string | null | undefined): number | null {
  const match = error ? /^RateLimited:(\d{1,7})$/.exec(error) : null;
  return match ? Number(match[1]) : null;
}

/** The sign-in page's message for a next-auth error value. */
export function signInErrorMessage(error: string | null | undefined): string | null {
  if (!error) return null;
  if (error === "CredentialsSignin") return "Wrong email or password.";
  if (error === SECOND_FACTOR_REQUIRED) return "Enter the 6-digit code from your authenticator app (or a recovery code).";
  const seconds = lockedSecondsOf(error);
  if (seconds === null) return "Sign-in could not be completed. Please try again.";
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
