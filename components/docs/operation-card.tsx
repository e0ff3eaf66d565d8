export interface Operation {
  path: string;
  method: string;
  op: {
    operationId?: string;
    summary?: string;
    description?: string;
    tags?: string[];
    parameters?: { name: string; in: string; required?: boolean; description?: string }[];
    requestBody?: unknown;
    responses?: Record<string, { description?: string }>;
  };
}

const METHOD_COLOURS: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-800",
  post: "bg-blue-100 text-blue-800",
  put: "bg-amber-100 text-amber-800",
  patch: "bg-amber-100 text-amber-800",
  delete: "bg-red-100 text-red-800",
};

/** One operation of the reference: method, path, parameters, request body and every response. */
export function OperationCard({ operation: { path, method, op } }: { operation: Operation }) {
  return (
    <article id={op.operationId} className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-2 py-0.5 font-bold uppercase ${METHOD_COLOURS[method] ?? ""}`}>{method}</span>
        <span>{path}</span>
      </h3>
      <p className="mt-2 font-medium">{op.summary}</p>
      {op.description && op.description !== op.summary && <p className="mt-1 text-sm text-slate-600">{op.description}</p>}
      {op.parameters && op.parameters.length > 0 && (
        <table className="mt-3 w-full text-left text-sm">
          <thead>
            <tr className="text-slate-500">
              <th className="pr-4">Parameter</th>
              <th className="pr-4">In</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {op.parameters.map((p) => (
              <tr key={`${p.in}:${p.name}`}>
                <td className="pr-4 font-mono">
                  {p.name}
                  {p.required ? " *" : ""}
                </td>
                <td className="pr-4">{p.in}</td>
                <td>{p.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {op.requestBody !== undefined && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-slate-700">Request body schema</summary>
          <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{JSON.stringify(op.requestBody, null, 2)}</pre>
        </details>
      )}
      <ul className="mt-3 space-y-1 text-sm">
        {Object.entries(op.responses ?? {}).map(([status, r]) => (
          <li key={status}>
            <span className={`mr-2 font-mono font-semibold ${status.startsWith("2") ? "text-emerald-700" : "text-red-700"}`}>{status}</span>
            {r.description}
          </li>
        ))}
      </ul>
    </article>
  );
}
