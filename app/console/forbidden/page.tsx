import Link from "next/link";

export const metadata = { title: "Not allowed · Console" };

export default function ForbiddenPage() {
  return (
    <main className="mx-auto max-w-md p-8" data-testid="console-forbidden">
      <h1 className="text-xl font-semibold">Not allowed</h1>
      <p className="mt-2 text-slate-600">
        Your role does not include this page or action: a reviewer works the queues, an auditor reads every page and changes nothing.
      </p>
      <Link href="/console" className="mt-4 inline-block text-blue-700 underline">
        Back to the queues
      </Link>
    </main>
  );
}
