import { z } from "zod";
import { config } from "@/lib/config";
import { DomainError } from "@/lib/errors";
import { KYC_OUTCOMES } from "@/lib/kyc/statuses";
import { decideKycFromWebview } from "@/lib/kyc/webview";
import { webviewAction } from "@/lib/webviews/action";

// POST /webviews/kyc/{token}/outcome: the sandbox outcome buttons of the hosted page (refused
// too when operators decide KYC: lib/kyc/webview.ts).
export const POST = webviewAction(z.strictObject({ outcome: z.enum(KYC_OUTCOMES) }), ({ tx, token, body, now }) => {
  if (!config().sandbox) throw new DomainError("route.notFound", { message: "No such route." });
  return decideKycFromWebview(tx, token, body.outcome, now);
});
