import { DomainError, validationError } from "@/lib/platform/errors";
import { readLimited } from "@/lib/platform/http/body";
import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse, jsonResponse } from "@/lib/platform/http/envelope";
import { kycDecidedByOperators } from "@/lib/identity/kyc/decision-provider";
import { KYC_PHOTO_KINDS, type KycPhotoKind } from "@/lib/identity/kyc/photo-kinds";
import { KYC_PHOTO_MAX_BYTES, KYC_PHOTO_TYPES, storeKycPhoto } from "@/lib/identity/kyc/webview";
import { toDomainError } from "@/lib/platform/unit-of-work";
import { webviewUnit } from "@/lib/platform/webviews/action";

// POST /webviews/kyc/{token}/photo?kind=DOCUMENT|DOCUMENT_BACK|SELFIE|SELFIE_TURN: one picture as
// the raw body (not with the sandbox buttons, which never need it). Raw bytes rather than JSON: a
// phone photo is several megabytes, past the JSON body limit.
export async function POST(req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const correlationId = correlationIdOf(req);
  try {
    if (!kycDecidedByOperators()) throw new DomainError("route.notFound", { message: "No such route." });
    const { token } = await ctx.params;
    const kind = new URL(req.url).searchParams.get("kind") ?? "DOCUMENT";
    if (!(KYC_PHOTO_KINDS as readonly string[]).includes(kind)) {
      throw validationError([{ field: "kind", code: "validation.fieldInvalid", message: `kind is one of ${KYC_PHOTO_KINDS.join(", ")}.` }]);
    }
    const contentType = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (!(KYC_PHOTO_TYPES as readonly string[]).includes(contentType)) {
      throw new DomainError("validation.contentTypeUnsupported", { message: `Send the photo as one of ${KYC_PHOTO_TYPES.join(", ")}.` });
    }
    const bytes = Buffer.from(await readLimited(req, KYC_PHOTO_MAX_BYTES));
    if (bytes.byteLength === 0) throw validationError([{ field: "photo", code: "validation.fieldMissing", message: "The photo is empty." }]);
    const stored = await webviewUnit(({ tx, now }) => storeKycPhoto(tx, token, { kind: kind as KycPhotoKind, contentType, bytes }, now), correlationId);
    if (!stored.ok) return errorResponse(stored.error, correlationId);
    return jsonResponse(200, JSON.stringify(stored.value), { "x-correlation-id": correlationId, "referrer-policy": "no-referrer" });
  } catch (err) {
    return errorResponse(toDomainError(err, { correlationId, route: "webview" }), correlationId);
  }
}
