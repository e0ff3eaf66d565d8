import * as api from "@/lib/interface/api/contracts/auth";
import { refreshTokens } from "@/lib/identity/auth/tokens";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/refresh: rotate the refresh token.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.refresh, async ({ tx, body, partner, now }) => ({
    body: await refreshTokens(tx, body.refreshToken, partner.id, now),
  })),
});
