import * as api from "@/lib/api/contracts/auth";
import { login } from "@/lib/auth/login";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// POST /v1/auth/login: exchange the password for tokens.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.login, async ({ tx, body, partner, now }) => ({
    body: await login(tx, { partnerId: partner.id, ...body, now }),
  })),
});
