import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Remit Core</h1>
      <p className="mt-2 text-slate-600">White-label money-transfer platform: Auth API, Core API, hosted webviews, operator console.</p>
      <ul className="mt-6 list-disc space-y-1 pl-6">
        <li>
          <Link className="text-blue-700 underline" href="/docs">
            API reference
          </Link>
        </li>
        <li>
          <a className="text-blue-700 underline" href="/v1/openapi.json">
            OpenAPI document
          </a>
        </li>
      </ul>
    </main>
  );
}
