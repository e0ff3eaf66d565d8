import * as api from "@/lib/interface/api/contracts/auth";
import { startLogin } from "@/lib/identity/auth/login";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/start: begin a login for an identifier.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.loginStart, async ({ tx, body, partner, now }) => ({
    body: await startLogin(tx, { partnerId: partner.id, identifier: body.identifier, now }),
  })),
});
