import * as api from "@/lib/api/contracts/sandbox";
import { latestOtpMessage } from "@/lib/auth/sandbox-outbox";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// GET /v1/sandbox/otp?identifier=: the sandbox messaging outbox.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.otpOutbox, async ({ tx, query, partner }) => ({ body: await latestOtpMessage(tx, partner.id, query.identifier) })),
});
