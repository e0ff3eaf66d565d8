import { LoginForm } from "@/components/console/login-form";

export const metadata = { title: "Sign in · Console" };

export default function LoginPage() {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">Operator console</h1>
        <p className="mb-6 text-sm text-slate-600">Sign in with your operator account.</p>
        <LoginForm />
      </div>
    </main>
  );
}
