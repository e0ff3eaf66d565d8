import { readLimited } from "@/lib/platform/http/body";
import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse, jsonResponse } from "@/lib/platform/http/envelope";
import { clock } from "@/lib/platform/clock";
import { receiveOnfidoWebhook } from "@/lib/identity/kyc/verification/service";
import { ready } from "@/lib/platform/ready";
import { toDomainError } from "@/lib/platform/unit-of-work";

// POST /kyc-vendor/onfido/webhook: Onfido's check result (KYC_DECISION_PROVIDER=onfido), signed
// with the webhook token (X-SHA2-Signature). A forged signature answers 401 and changes nothing.
export async function POST(req: Request): Promise<Response> {
  const correlationId = correlationIdOf(req);
  try {
    const raw = Buffer.from(await readLimited(req, 64 * 1024)).toString("utf8");
    const result = await receiveOnfidoWebhook(await ready(), raw, req.headers.get("x-sha2-signature"), clock.now());
    return jsonResponse(200, JSON.stringify(result), { "x-correlation-id": correlationId });
  } catch (err) {
    return errorResponse(toDomainError(err, { correlationId, route: "kyc-vendor" }), correlationId);
  }
}
