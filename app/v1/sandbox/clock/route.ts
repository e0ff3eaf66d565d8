import * as api from "@/lib/interface/api/contracts/sandbox";
import { clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/sandbox/clock: move the process clock forward (tests of expiries and lockouts).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.advanceClock, async ({ body }) => {
    if (!config().SANDBOX_CLOCK_CONTROL) throw new DomainError("route.notFound", { message: "No such route." });
    clock.advance(body.advanceSeconds * 1000);
    return { body: { now: clock.now().toISOString(), offsetSeconds: clock.offsetMs() / 1000 } };
  }),
});
