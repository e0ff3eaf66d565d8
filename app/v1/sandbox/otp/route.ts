import * as api from "@/lib/platform/api/contracts/sandbox";
import { latestOtpMessage } from "@/lib/identity/auth/sandbox-outbox";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// GET /v1/sandbox/otp?identifier=: the sandbox messaging outbox.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.otpOutbox, async ({ tx, query, partner }) => ({ body: await latestOtpMessage(tx, partner.id, query.identifier) })),
});
