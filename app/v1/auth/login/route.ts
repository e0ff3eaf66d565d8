import * as api from "@/lib/platform/api/contracts/auth";
import { login } from "@/lib/identity/auth/login";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// POST /v1/auth/login: exchange the password for tokens.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.login, async ({ tx, body, partner, now }) => ({
    body: await login(tx, { partnerId: partner.id, ...body, now }),
  })),
});
