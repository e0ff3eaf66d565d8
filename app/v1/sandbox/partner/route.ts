import * as api from "@/lib/platform/api/contracts/sandbox";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { updatePartnerSettings } from "@/lib/partners/settings";

// PUT /v1/sandbox/partner: configure JWKS, pricing mode and webhook URL of the calling partner.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: endpoint(api.putPartner, async ({ tx, body, partner, now }) => ({ body: await updatePartnerSettings(tx, partner.id, body, now) })),
});
