import Link from "next/link";

export const metadata = { title: "Not found · Console" };

/** The console's 404: an unknown page, record or list page (`?page=1e20`). */
export default function ConsoleNotFound() {
  return (
    <main className="mx-auto max-w-md p-8" data-testid="console-not-found">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600">There is no such console page, record or list page.</p>
      <Link href="/console" className="mt-4 inline-block text-blue-700 underline">
        Back to the queues
      </Link>
    </main>
  );
}
