import { z } from "zod";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { KYC_OUTCOMES } from "@/lib/identity/kyc/statuses";
import { decideKycFromWebview } from "@/lib/identity/kyc/webview";
import { webviewAction } from "@/lib/platform/webviews/action";

// POST /webviews/kyc/{token}/outcome: the sandbox outcome buttons of the hosted page (refused
// too when operators decide KYC: lib/identity/kyc/webview.ts).
export const POST = webviewAction(z.strictObject({ outcome: z.enum(KYC_OUTCOMES) }), ({ tx, token, body, now }) => {
  if (!config().sandbox) throw new DomainError("route.notFound", { message: "No such route." });
  return decideKycFromWebview(tx, token, body.outcome, now);
});
