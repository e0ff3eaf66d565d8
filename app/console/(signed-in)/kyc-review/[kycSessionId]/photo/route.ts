import { requireOperator } from "@/lib/operations/console/session";
import { KYC_PHOTO_KINDS, type KycPhotoKind } from "@/lib/identity/kyc/photo-kinds";
import { readKycPhoto } from "@/lib/identity/kyc/review";
import { ready } from "@/lib/platform/ready";

export const dynamic = "force-dynamic";

/**
 * GET /console/kyc-review/{kycSessionId}/photo[?kind=SELFIE|SELFIE_TURN|DOCUMENT_BACK]: a customer's document photo (or another picture), for signed-in
 * operators only (requireOperator sends anyone else to the sign-in page). Never cached, never
 * sniffed into something else, and inert if opened directly (a CSP sandbox with nothing allowed).
 */
export async function GET(req: Request, ctx: { params: Promise<{ kycSessionId: string }> }): Promise<Response> {
  await requireOperator();
  const { kycSessionId } = await ctx.params;
  const asked = new URL(req.url).searchParams.get("kind") ?? "DOCUMENT";
  const kind = (KYC_PHOTO_KINDS as readonly string[]).includes(asked) ? (asked as KycPhotoKind) : null;
  const photo = kind ? await readKycPhoto(await ready(), kycSessionId, kind) : null;
  const headers = {
    "cache-control": "no-store, private",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; img-src 'self'; sandbox; frame-ancestors 'none'",
  };
  if (!photo) return new Response("Not found", { status: 404, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(photo.bytes), {
    status: 200,
    headers: { ...headers, "content-type": photo.contentType, "content-length": String(photo.size), "content-disposition": "inline" },
  });
}
