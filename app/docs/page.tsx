import { buildOpenApiDocument } from "@/lib/api/openapi";
import { config } from "@/lib/config";
import { OperationCard, type Operation } from "@/components/docs/operation-card";

export const metadata = { title: "API reference · Remit Core" };
export const dynamic = "force-dynamic";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The API reference, rendered on the server from the same OpenAPI document as /v1/openapi.json. */
export default function DocsPage() {
  const doc = buildOpenApiDocument(config().publicBaseUrl);
  const operations: Operation[] = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item?.[m]).map((m) => ({ path, method: m, op: item![m]! as Operation["op"] })),
  );
  const tags = [...new Set(operations.flatMap((o) => o.op.tags ?? []))];
  return (
    <main className="mx-auto max-w-5xl p-6">
      <header className="mb-8">
        <h1 className="text-3xl font-semibold">{doc.info.title}</h1>
        <p className="mt-2 text-slate-600">{doc.info.description}</p>
        <p className="mt-2 text-sm">
          Version {doc.info.version} ·{" "}
          <a className="text-blue-700 underline" href="/v1/openapi.json">
            openapi.json
          </a>
        </p>
        <p className="mt-4 text-sm text-slate-700">
          Every call sends <code>Ocp-Apim-Subscription-Key</code>; customer calls also send <code>Authorization: Bearer</code>. Errors always have the shape{" "}
          <code>{"{ error: { code, message, hint, remediation, details }, correlationId }"}</code>: branch on <code>error.code</code>.
        </p>
      </header>
      {tags.map((tag) => (
        <section key={tag} className="mb-10" aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`} className="mb-4 text-2xl font-semibold">
            {tag}
          </h2>
          {operations
            .filter((o) => o.op.tags?.includes(tag))
            .map((o) => (
              <OperationCard key={`${o.method} ${o.path}`} operation={o} />
            ))}
        </section>
      ))}
    </main>
  );
}
