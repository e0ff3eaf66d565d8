import * as api from "@/lib/interface/api/contracts/sandbox";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { updatePartnerSettings } from "@/lib/partners/settings";

// PUT /v1/sandbox/partner: configure JWKS, pricing mode and webhook URL of the calling partner.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: endpoint(api.putPartner, async ({ tx, body, partner, now }) => ({ body: await updatePartnerSettings(tx, partner.id, body, now) })),
});
