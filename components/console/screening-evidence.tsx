import type { screeningResults } from "@/db/schema";
import { when } from "@/lib/operations/console/format";
import { Badge } from "./ui";

type Screening = typeof screeningResults.$inferSelect;

/**
 * Why screening flagged a subject (lib/compliance/screening/results.ts): the matched list entries with the
 * list, entry number and reference, name or alias matched, program or regime, score and the subject's fields that agreed or differed. Console
 * only: the partner API never carries any of it.
 */
export function ScreeningEvidence({ screening }: { screening: Screening | undefined }) {
  if (!screening) return <p className="text-sm text-slate-500">Not screened yet.</p>;
  const versions = Object.entries(screening.listVersions)
    .map(([list, version]) => `${list} ${version}`)
    .join(", ");
  return (
    <div className="text-sm" data-testid="screening-evidence">
      <p>
        Screening <Badge>{screening.result}</Badge> on {when(screening.createdAt)} against {versions}
      </p>
      {screening.evidence.length === 0 ? null : (
        <table className="mt-2 w-full text-left">
          <thead>
            <tr className="text-slate-500">
              <th className="p-1">List</th>
              <th className="p-1">Entry</th>
              <th className="p-1">Matched name</th>
              <th className="p-1">Program / regime</th>
              <th className="p-1">Score</th>
              <th className="p-1">Agreed</th>
              <th className="p-1">Differed</th>
            </tr>
          </thead>
          <tbody>
            {screening.evidence.map((e) => (
              <tr key={`${e.list}:${e.entryId}`} className="border-t align-top">
                <td className="p-1">
                  {e.listName ?? e.list}
                  {e.listName ? <span className="font-mono text-slate-500"> ({e.list})</span> : null}
                </td>
                <td className="p-1 font-mono">
                  {e.entryId}
                  {e.reference ? ` (${e.reference})` : null} <Badge>{e.result}</Badge>
                </td>
                <td className="p-1">
                  {e.matchedName}
                  {e.matchedAlias ? <span className="text-slate-500"> (alias of {e.entryName})</span> : null}
                </td>
                <td className="p-1">{e.programs.join(", ")}</td>
                <td className="p-1 font-mono">{e.score}</td>
                <td className="p-1">{e.agreed.join(", ") || "none"}</td>
                <td className="p-1">{e.differed.join(", ") || "none"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
