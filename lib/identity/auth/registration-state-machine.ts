/**
 * Registration lifecycle (decisions section 3): the code is sent (OTP_SENT), the customer proves it
 * (VERIFIED), then sets a password and the subscription opens (COMPLETED). Expiry is a time check
 * on the record (expiresAt), not a state.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { REGISTRATION_STATES, type RegistrationState } from "@/db/schema/registrations";
export { REGISTRATION_STATES, type RegistrationState } from "@/db/schema/registrations";

export const REGISTRATION_TRIGGERS = ["otp.sent", "otp.verified", "password.set"] as const;
export type RegistrationTrigger = (typeof REGISTRATION_TRIGGERS)[number];

export const registrationMachine = defineMachine<RegistrationState, RegistrationTrigger>({
  name: "registration",
  states: REGISTRATION_STATES,
  triggers: REGISTRATION_TRIGGERS,
  // The flow's own answer to a step out of order (registration.ts adds the hint).
  refusedCode: "auth.otpInvalid",
  transitions: [
    { from: [NONE], trigger: "otp.sent", to: "OTP_SENT", notes: "POST /v1/auth/register" },
    { from: ["OTP_SENT"], trigger: "otp.verified", to: "VERIFIED", notes: "the code matched" },
    { from: ["VERIFIED"], trigger: "password.set", to: "COMPLETED", notes: "subscription opened" },
  ],
});
