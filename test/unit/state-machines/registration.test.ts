/** Registration machine (decisions section 3): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { registrationMachine } from "@/lib/identity/auth/registration-state-machine";
import { checkExhaustively } from "./exhaustive";

test("registration: every (state, trigger) cell", () => {
  const cells = checkExhaustively(registrationMachine, {
    states: ["OTP_SENT", "VERIFIED", "COMPLETED"],
    triggers: ["otp.sent", "otp.verified", "password.set"],
    moves: [
      { from: "none", trigger: "otp.sent", to: "OTP_SENT" },
      { from: "OTP_SENT", trigger: "otp.verified", to: "VERIFIED" },
      { from: "VERIFIED", trigger: "password.set", to: "COMPLETED" },
    ],
    refusal: () => ({ code: "auth.otpInvalid", status: 401 }),
  });
  assert.equal(cells, 4 * 3);
});
