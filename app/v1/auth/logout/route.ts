import * as api from "@/lib/api/contracts/auth";
import { logout } from "@/lib/auth/tokens";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// POST /v1/auth/logout: revoke the caller's tokens.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.logout, async ({ tx, customer, now }) => {
    await logout(tx, customer.sessionId, now);
    return { status: 204 };
  }),
});
