import * as api from "@/lib/api/contracts/auth";
import { refreshTokens } from "@/lib/auth/tokens";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// POST /v1/auth/refresh: rotate the refresh token.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.refresh, async ({ tx, body, partner, now }) => ({
    body: await refreshTokens(tx, body.refreshToken, partner.id, now),
  })),
});
