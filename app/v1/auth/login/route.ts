import * as api from "@/lib/interface/api/contracts/auth";
import { login } from "@/lib/identity/auth/login";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/login: exchange the password for tokens.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.login, async ({ tx, body, partner, now }) => ({
    body: await login(tx, { partnerId: partner.id, ...body, now }),
  })),
});
