"use client";

import Link from "next/link";

/**
 * The console's own error page: a failed page or server action (a refused oversized form, a
 * fault) lands here instead of Next's blank one. No detail of the error is shown.
 */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-md p-8" role="alert" data-testid="console-error">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-slate-600">Nothing was changed. Try again, or go back to the queues.</p>
      {error.digest && <p className="mt-2 font-mono text-xs text-slate-500">Reference: {error.digest}</p>}
      <div className="mt-4 flex gap-4">
        <button type="button" onClick={reset} className="text-blue-700 underline">
          Try again
        </button>
        <Link href="/console" className="text-blue-700 underline">
          Back to the queues
        </Link>
      </div>
    </main>
  );
}
