import { clock } from "@/lib/clock";
import { DomainError } from "@/lib/errors";
import { readLimited } from "@/lib/http/body";
import { correlationIdOf } from "@/lib/http/correlation";
import { errorResponse, jsonResponse, unexpected } from "@/lib/http/envelope";
import { kycDecidedByOperators } from "@/lib/kyc/decision-provider";
import { KYC_PHOTO_MAX_BYTES, KYC_PHOTO_TYPES, storeKycPhoto } from "@/lib/kyc/webview";
import { logger } from "@/lib/log";
import { unitOfWork } from "@/lib/platform/unit-of-work";

// POST /webviews/kyc/{token}/photo: the document photo as the raw body (operator mode only: the
// reviewer looks at it; the sandbox buttons never need it). Raw bytes rather than JSON: a phone
// photo is several megabytes, past the JSON body limit.
export async function POST(req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const correlationId = correlationIdOf(req);
  try {
    if (!kycDecidedByOperators()) throw new DomainError("route.notFound", { message: "No such route." });
    const { token } = await ctx.params;
    const contentType = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (!(KYC_PHOTO_TYPES as readonly string[]).includes(contentType)) {
      throw new DomainError("validation.fieldInvalid", {
        message: `The photo must be one of ${KYC_PHOTO_TYPES.join(", ")}.`,
        details: { field: "photo", contentType },
      });
    }
    const bytes = Buffer.from(await readLimited(req, KYC_PHOTO_MAX_BYTES));
    if (bytes.byteLength === 0) throw new DomainError("validation.fieldMissing", { message: "The photo is empty.", details: { field: "photo" } });
    const stored = await unitOfWork((tx) => storeKycPhoto(tx, token, { contentType, bytes }, clock.now()), { context: { correlationId, route: "webview" } });
    if (!stored.ok) return errorResponse(stored.error, correlationId);
    return jsonResponse(200, JSON.stringify(stored.value), { "x-correlation-id": correlationId, "referrer-policy": "no-referrer" });
  } catch (err) {
    if (!(err instanceof DomainError)) logger().error({ err, correlationId }, "KYC photo upload failed");
    return errorResponse(err instanceof DomainError ? err : unexpected(), correlationId);
  }
}
