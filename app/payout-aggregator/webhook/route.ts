import { readLimited } from "@/lib/platform/http/body";
import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse, jsonResponse } from "@/lib/platform/http/envelope";
import { clock } from "@/lib/platform/clock";
import { receiveAggregatorWebhook } from "@/lib/payments/payouts/provider-webhook";
import { ready } from "@/lib/platform/ready";
import { toDomainError } from "@/lib/platform/unit-of-work";

// POST /payout-aggregator/webhook: the payout aggregator's status for one of our tries
// (PAYOUT_PROVIDER=routed), signed in X-Aggregator-Signature. A forged, altered or old delivery
// answers 401 and changes nothing; a signed body that is no status answers 400.
export async function POST(req: Request): Promise<Response> {
  const correlationId = correlationIdOf(req);
  try {
    const raw = Buffer.from(await readLimited(req, 64 * 1024)).toString("utf8");
    const result = await receiveAggregatorWebhook(await ready(), raw, req.headers.get("x-aggregator-signature"), clock.now());
    return jsonResponse(200, JSON.stringify(result), { "x-correlation-id": correlationId });
  } catch (err) {
    return errorResponse(toDomainError(err, { correlationId, route: "payout-aggregator" }), correlationId);
  }
}
