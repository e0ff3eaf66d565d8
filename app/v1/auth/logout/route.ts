import * as api from "@/lib/platform/api/contracts/auth";
import { logout } from "@/lib/identity/auth/tokens";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// POST /v1/auth/logout: revoke the caller's tokens.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.logout, async ({ tx, customer, now }) => {
    await logout(tx, customer.sessionId, now);
    return { status: 204 };
  }),
});
