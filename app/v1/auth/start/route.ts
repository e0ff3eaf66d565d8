import * as api from "@/lib/platform/api/contracts/auth";
import { startLogin } from "@/lib/identity/auth/login";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// POST /v1/auth/start: begin a login for an identifier.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.loginStart, async ({ tx, body, partner, now }) => ({
    body: await startLogin(tx, { partnerId: partner.id, identifier: body.identifier, now }),
  })),
});
