import { LoginForm } from "@/components/console/login-form";
import { signInErrorMessage } from "@/lib/console/sign-in-errors";

export const metadata = { title: "Sign in · Console" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** next-auth sends a refused sign-in here with ?error= (wrong password, or a lockout and its wait). */
export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const { error } = await searchParams;
  const initialError = typeof error === "string" ? signInErrorMessage(error) : null;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">Operator console</h1>
        <p className="mb-6 text-sm text-slate-600">Sign in with your operator account.</p>
        <LoginForm initialError={initialError} />
      </div>
    </main>
  );
}
