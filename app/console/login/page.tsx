import { LoginForm } from "@/components/console/login-form";
import { signInErrorMessage } from "@/lib/operations/console/sign-in-errors";

export const metadata = { title: "Sign in · Console" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** next-auth sends a refused sign-in here with ?error= (wrong password, or a lockout and its wait). */
export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const { error, ended, reset } = await searchParams;
  // ?ended=1: the console ended the session (the operator was disabled, or an admin reset the account).
  const initialError = typeof error === "string" ? signInErrorMessage(error) : ended ? "Your session has ended. Sign in again." : null;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">Operator console</h1>
        <p className="mb-6 text-sm text-slate-600">Sign in with your operator account.</p>
        {reset ? (
          <p role="status" className="mb-4 rounded bg-emerald-50 p-2 text-sm text-emerald-900">
            {reset === "totp" ? "Your lost second factor is removed: sign in and set up a new one." : "Your new password is set: sign in with it."}
          </p>
        ) : null}
        <LoginForm initialError={initialError} />
      </div>
    </main>
  );
}
