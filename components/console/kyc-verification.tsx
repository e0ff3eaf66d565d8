import type { KycVerificationRecord } from "@/lib/identity/kyc/verification/record";
import type { KycPhotoKind } from "@/lib/identity/kyc/photo-kinds";

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : "—");
const fold = (v: unknown) =>
  typeof v === "string"
    ? v
        .normalize("NFKD")
        .replace(/[^\p{L}\p{N}]/gu, "")
        .toUpperCase()
    : "";

/**
 * What the machine found, for the reviewer of a session it could not clear: the fields read from
 * the document beside the profile's and what the customer typed (differences marked), the reasons
 * it sent the session here, the face-match score, and links to the other pictures.
 */
export function KycVerificationPanel({
  kycSessionId,
  verification,
  profile,
  capture,
  photoKinds,
}: {
  kycSessionId: string;
  verification: KycVerificationRecord;
  profile: Record<string, unknown>;
  capture: { documentType?: string; documentNumber?: string; issuingCountry?: string; expiryDate?: string };
  photoKinds: KycPhotoKind[];
}) {
  const x = verification.extracted ?? {};
  const rows: [string, unknown, string | null | undefined][] = [
    ["Last name", profile.lastName, x.lastName],
    ["First name", profile.firstName, x.firstName],
    ["Date of birth", profile.dateOfBirth, x.dateOfBirth],
    ["Nationality", profile.nationality, x.nationality],
    ["Document number", capture.documentNumber, x.documentNumber],
    ["Issuing country", capture.issuingCountry, x.issuingCountry],
    ["Expiry", capture.expiryDate, x.expiryDate],
    ["Document type", capture.documentType, x.documentType],
  ];
  const face = verification.face;
  return (
    <section className="mt-3 rounded border border-slate-200 p-3 text-sm" data-testid="kyc-verification">
      <h3 className="font-semibold">
        Machine verification ({verification.provider}): {verification.status === "REVIEW" ? "needs a person" : verification.status}
      </h3>
      {verification.reasons && verification.reasons.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-red-800" data-testid="kyc-verification-reasons">
          {verification.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {verification.extracted && (
        <table className="mt-2 w-full text-left">
          <thead>
            <tr className="text-slate-500">
              <th className="pr-4 font-normal">Field</th>
              <th className="pr-4 font-normal">Profile / entered</th>
              <th className="font-normal">Read from the document</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, want, got]) => {
              const differs = fold(want) !== fold(got);
              return (
                <tr key={name} className={differs ? "bg-red-50 text-red-900" : undefined} data-differs={differs ? "true" : undefined}>
                  <td className="pr-4">{name}</td>
                  <td className="pr-4">{text(want)}</td>
                  <td>
                    {text(got)}
                    {differs ? " ≠" : ""}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p className="mt-2" data-testid="kyc-face-score">
        Face match:{" "}
        {face?.ran
          ? `score ${face.score} (threshold ${face.threshold}, ${face.matched ? "match" : "no match"}; liveness ${face.liveness?.passed ? "passed" : "failed"}, ${face.matcher})`
          : `not made${face?.reason ? `: ${face.reason}` : ""}`}
      </p>
      {photoKinds.filter((k) => k !== "DOCUMENT").length > 0 && (
        <p className="mt-1 space-x-3">
          {photoKinds
            .filter((k) => k !== "DOCUMENT")
            .map((k) => (
              <a key={k} href={`/console/kyc-review/${kycSessionId}/photo?kind=${k}`} target="_blank" rel="noreferrer" className="text-blue-700 underline">
                {k.toLowerCase().replace("_", " ")}
              </a>
            ))}
        </p>
      )}
    </section>
  );
}
