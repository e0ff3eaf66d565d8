import * as api from "@/lib/interface/api/contracts/auth";
import { logout } from "@/lib/identity/auth/tokens";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/logout: revoke the caller's tokens.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.logout, async ({ tx, customer, now }) => {
    await logout(tx, customer.sessionId, now);
    return { status: 204 };
  }),
});
