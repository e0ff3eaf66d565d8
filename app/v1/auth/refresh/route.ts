import * as api from "@/lib/platform/api/contracts/auth";
import { refreshTokens } from "@/lib/identity/auth/tokens";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// POST /v1/auth/refresh: rotate the refresh token.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.refresh, async ({ tx, body, partner, now }) => ({
    body: await refreshTokens(tx, body.refreshToken, partner.id, now),
  })),
});
