import * as api from "@/lib/interface/api/contracts/sandbox";
import { latestOtpMessage } from "@/lib/identity/auth/sandbox-outbox";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// GET /v1/sandbox/otp?identifier=: the sandbox messaging outbox.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.otpOutbox, async ({ tx, query, partner }) => ({ body: await latestOtpMessage(tx, partner.id, query.identifier) })),
});
