import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { DEVICE_STATUSES } from "@/lib/identity";
import { Timestamp, TokenResponseSchema } from "../schemas";
import { EX } from "../examples/ids";

const tags = ["Auth"];
const identifier = z.string().min(1).max(320).meta({ description: "Email address or E.164 phone number.", example: "ada@example.com" });

export const health = defineContract({
  operationId: "authHealth",
  method: "GET",
  path: "/v1/auth/health",
  summary: "Service health",
  tags,
  auth: "partner",
  success: {
    status: 200,
    description: "The service is up.",
    schema: z.object({ status: z.literal("ok"), service: z.string(), timestamp: Timestamp }).meta({ id: "HealthResponse" }),
  },
  examples: { response: { status: "ok", service: "remit-core", timestamp: EX.at(0) } },
  errors: ["auth.subscriptionKeyInvalid"],
});

export const registerStart = defineContract({
  operationId: "registerStart",
  method: "POST",
  path: "/v1/auth/register/start",
  summary: "Start registration: sends a one-time code to the identifier",
  description: "Answers the same for an identifier that already has an account; that message carries no code.",
  tags,
  auth: "partner",
  body: z.strictObject({ identifier }).meta({ id: "RegisterStartRequest", example: { identifier: "ada@example.com" } }),
  success: {
    status: 200,
    description: "Code sent.",
    schema: z.object({ registrationId: z.string(), nextStep: z.literal("VERIFY_OTP"), otpExpiresAt: Timestamp }).meta({ id: "RegisterStartResponse" }),
  },
  examples: {
    request: { identifier: "ana.garcia@example.com" },
    response: { registrationId: EX.registrationId, nextStep: "VERIFY_OTP", otpExpiresAt: EX.at(8) },
  },
  errors: [
    "auth.subscriptionKeyInvalid",
    "auth.identifierInvalid",
    "auth.rateLimited",
    "validation.fieldMissing",
    "validation.bodyMalformed",
    "validation.contentTypeUnsupported",
  ],
});

export const registerVerifyOtp = defineContract({
  operationId: "registerVerifyOtp",
  method: "POST",
  path: "/v1/auth/register/verify-otp",
  summary: "Verify the registration code",
  tags,
  auth: "partner",
  body: z
    .strictObject({ registrationId: z.string().min(1).max(64), otp: z.string().min(1).max(12).meta({ example: "123456" }) })
    .meta({ id: "RegisterVerifyOtpRequest" }),
  success: {
    status: 200,
    description: "Code accepted.",
    schema: z.object({ registrationId: z.string(), nextStep: z.literal("SET_PASSWORD") }).meta({ id: "RegisterVerifyOtpResponse" }),
  },
  examples: { request: { registrationId: EX.registrationId, otp: "482913" }, response: { registrationId: EX.registrationId, nextStep: "SET_PASSWORD" } },
  errors: [
    "auth.subscriptionKeyInvalid",
    "auth.otpInvalid",
    "auth.otpExpired",
    "auth.rateLimited",
    "auth.sessionExpired",
    "registration.notFound",
    "validation.fieldMissing",
  ],
});

export const registerSetPassword = defineContract({
  operationId: "registerSetPassword",
  method: "POST",
  path: "/v1/auth/register/set-password",
  summary: "Set the password and receive tokens",
  description:
    "Retried after it completed (its answer was lost), the same registration with the same password answers 201 again: a new token pair for the same subscription. Another password is 401 auth.otpInvalid and counts towards the identifier's login lockout (then 429 auth.rateLimited).",
  tags,
  auth: "partner",
  body: z
    .strictObject({ registrationId: z.string().min(1).max(64), password: z.string().max(256).meta({ description: "At least 12 characters." }) })
    .meta({ id: "RegisterSetPasswordRequest" }),
  success: { status: 201, description: "Registered; tokens issued.", schema: TokenResponseSchema },
  examples: {
    request: { registrationId: EX.registrationId, password: "correct horse battery staple" },
    response: {
      accessToken: EX.accessToken,
      refreshToken: EX.refreshToken,
      tokenType: "Bearer",
      expiresIn: 3600,
      subscriptionId: EX.subscriptionId,
      nextStep: "COMPLETE_PROFILE",
    },
  },
  errors: [
    "auth.subscriptionKeyInvalid",
    "validation.fieldInvalid",
    "auth.otpInvalid",
    "auth.sessionExpired",
    "registration.notFound",
    "auth.rateLimited",
    "subscription.closed",
  ],
});

export const loginStart = defineContract({
  operationId: "loginStart",
  method: "POST",
  path: "/v1/auth/start",
  summary: "Start a login",
  description: "Answers the same for known and unknown identifiers.",
  tags,
  auth: "partner",
  body: z.strictObject({ identifier }).meta({ id: "LoginStartRequest", example: { identifier: "+14155550123" } }),
  success: {
    status: 200,
    description: "Password required.",
    schema: z.object({ loginAttemptId: z.string(), nextStep: z.literal("PASSWORD_REQUIRED") }).meta({ id: "LoginStartResponse" }),
  },
  examples: { request: { identifier: "ana.garcia@example.com" }, response: { loginAttemptId: EX.loginAttemptId, nextStep: "PASSWORD_REQUIRED" } },
  errors: ["auth.subscriptionKeyInvalid", "auth.identifierInvalid", "validation.fieldMissing"],
});

export const login = defineContract({
  operationId: "login",
  method: "POST",
  path: "/v1/auth/login",
  summary: "Log in with the password",
  tags,
  auth: "partner",
  body: z
    .strictObject({ loginAttemptId: z.string().min(1).max(64), password: z.string().min(1).max(256) })
    .meta({ id: "LoginRequest", example: { loginAttemptId: "la_...", password: "correct horse battery staple" } }),
  success: { status: 200, description: "Tokens issued.", schema: TokenResponseSchema },
  examples: {
    request: { loginAttemptId: EX.loginAttemptId, password: "correct horse battery staple" },
    response: {
      ...{
        accessToken: EX.accessToken,
        refreshToken: EX.refreshToken,
        tokenType: "Bearer",
        expiresIn: 3600,
        subscriptionId: EX.subscriptionId,
        nextStep: "COMPLETE_PROFILE",
      },
      nextStep: "CONTINUE",
    },
  },
  errors: [
    "auth.subscriptionKeyInvalid",
    "auth.credentialMismatch",
    "auth.rateLimited",
    "auth.sessionExpired",
    "subscription.closed",
    "validation.fieldMissing",
  ],
});

export const refresh = defineContract({
  operationId: "refreshTokens",
  method: "POST",
  path: "/v1/auth/refresh",
  summary: "Rotate the refresh token",
  description: "Presenting an already-rotated refresh token revokes the whole session family.",
  tags,
  auth: "partner",
  body: z.strictObject({ refreshToken: z.string().min(1).max(512) }).meta({ id: "RefreshRequest" }),
  success: { status: 200, description: "New tokens.", schema: TokenResponseSchema },
  examples: {
    request: { refreshToken: EX.refreshToken },
    response: {
      ...{
        accessToken: EX.accessToken,
        refreshToken: EX.refreshToken,
        tokenType: "Bearer",
        expiresIn: 3600,
        subscriptionId: EX.subscriptionId,
        nextStep: "COMPLETE_PROFILE",
      },
      accessToken: "at_5b9e2d7f1c3a46e8b0d4f6a2c8e1b3d7",
      refreshToken: "rt_1d4f8b2e6c9a47d3b5e0f2a7c1d9e4b6",
      nextStep: "CONTINUE",
    },
  },
  errors: ["auth.subscriptionKeyInvalid", "auth.tokenInvalid", "auth.tokenRevoked", "auth.sessionExpired", "subscription.closed"],
});

export const logout = defineContract({
  operationId: "logout",
  method: "POST",
  path: "/v1/auth/logout",
  summary: "Log out: revokes the access and refresh tokens",
  tags,
  auth: "customer",
  success: { status: 204, description: "Logged out." },
  examples: {},
  errors: ["auth.subscriptionKeyInvalid", "auth.tokenInvalid", "auth.tokenExpired", "auth.tokenRevoked"],
});

export const passwordResetStart = defineContract({
  operationId: "passwordResetStart",
  method: "POST",
  path: "/v1/auth/password-reset/start",
  summary: "Start a password reset",
  description: "202 whether or not the identifier has an account.",
  tags,
  auth: "partner",
  body: z.strictObject({ identifier }).meta({ id: "PasswordResetStartRequest" }),
  success: { status: 202, description: "A code was sent if the identifier has an account." },
  examples: { request: { identifier: "ana.garcia@example.com" } },
  errors: ["auth.subscriptionKeyInvalid", "auth.identifierInvalid", "auth.rateLimited"],
});

export const passwordResetComplete = defineContract({
  operationId: "passwordResetComplete",
  method: "POST",
  path: "/v1/auth/password-reset/complete",
  summary: "Set a new password with the code",
  description: "Ends every session of the customer.",
  tags,
  auth: "partner",
  body: z.strictObject({ identifier, otp: z.string().min(1).max(12), newPassword: z.string().max(256) }).meta({ id: "PasswordResetCompleteRequest" }),
  success: {
    status: 200,
    description: "Password changed.",
    schema: z.object({ status: z.literal("PASSWORD_RESET") }).meta({ id: "PasswordResetCompleteResponse" }),
  },
  examples: {
    request: { identifier: "ana.garcia@example.com", otp: "730164", newPassword: "a new long passphrase 2026" },
    response: { status: "PASSWORD_RESET" },
  },
  errors: ["auth.subscriptionKeyInvalid", "auth.identifierInvalid", "auth.otpInvalid", "auth.otpExpired", "auth.rateLimited", "validation.fieldInvalid"],
});

const DeviceSchema = z
  .object({ deviceId: z.string(), kid: z.string(), deviceName: z.string().nullable(), status: z.enum(DEVICE_STATUSES), registeredAt: Timestamp })
  .meta({ id: "Device" });

export const deviceRegistrationStart = defineContract({
  operationId: "deviceRegistrationStart",
  method: "POST",
  path: "/v1/auth/device-registration/start",
  summary: "Start registering a device key",
  tags,
  auth: "customer",
  body: z.strictObject({}).meta({ id: "DeviceRegistrationStartRequest" }),
  success: {
    status: 200,
    description: "Challenge to sign (5 minutes, single use).",
    schema: z.object({ deviceRegistrationId: z.string(), challenge: z.string(), expiresAt: Timestamp }).meta({ id: "DeviceRegistrationStartResponse" }),
  },
  examples: { request: {}, response: { deviceRegistrationId: EX.deviceRegistrationId, challenge: "Zk3qN8vR2xT7mB4cW9yL1pD6", expiresAt: EX.at(5) } },
  errors: ["auth.tokenInvalid", "auth.tokenExpired"],
});

export const deviceRegistrationComplete = defineContract({
  operationId: "deviceRegistrationComplete",
  method: "POST",
  path: "/v1/auth/device-registration/complete",
  summary: "Register the device's RSA public key",
  description: "proof: compact JWS (RS256) signed by the key, payload {device_registration_id, challenge, iat}.",
  tags,
  auth: "customer",
  body: z
    .strictObject({
      deviceRegistrationId: z.string().min(1).max(64),
      publicKey: z.record(z.string(), z.unknown()).meta({ description: "Public RSA JWK (kty RSA, n, e), modulus ≥ 2048 bits." }),
      deviceName: z.string().max(100).optional(),
      proof: z.string().min(1).max(16384),
    })
    .meta({ id: "DeviceRegistrationCompleteRequest" }),
  success: {
    status: 201,
    description: "Device registered.",
    schema: z
      .object({ deviceId: z.string(), kid: z.string(), status: z.literal("ACTIVE"), registeredAt: Timestamp })
      .meta({ id: "DeviceRegistrationCompleteResponse" }),
  },
  examples: {
    request: {
      deviceRegistrationId: EX.deviceRegistrationId,
      publicKey: {
        kty: "RSA",
        kid: EX.kid,
        n: "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw",
        e: "AQAB",
      },
      deviceName: "Ana's iPhone",
      proof:
        "eyJhbGciOiJSUzI1NiIsImtpZCI6ImRldi1rZXktMjAyNi0xMSIsInR5cCI6IkpXVCJ9.eyJkZXZpY2VfcmVnaXN0cmF0aW9uX2lkIjoiZHJlZ182azFtOXEzZDd4MmM4djRiNW4wcDFyNnQiLCJjaGFsbGVuZ2UiOiJaazNxTjh2UjJ4VDdtQjRjVzl5TDFwRDYiLCJpYXQiOjE3OTUyNTUyNjB9.c2lnbmF0dXJl",
    },
    response: { deviceId: EX.deviceId, kid: EX.kid, status: "ACTIVE", registeredAt: EX.at(1) },
  },
  errors: ["auth.tokenInvalid", "validation.fieldInvalid", "device.assertionInvalid", "deviceRegistration.notFound"],
});

export const listDevices = defineContract({
  operationId: "listDevices",
  method: "GET",
  path: "/v1/auth/devices",
  summary: "List the customer's devices",
  tags,
  auth: "customer",
  success: { status: 200, description: "Devices, newest first.", schema: z.object({ items: z.array(DeviceSchema) }).meta({ id: "DeviceList" }) },
  examples: { response: { items: [{ deviceId: EX.deviceId, kid: EX.kid, deviceName: "Ana's iPhone", status: "ACTIVE", registeredAt: EX.at(1) }] } },
  errors: ["auth.tokenInvalid", "auth.tokenExpired"],
});

export const deactivateDevice = defineContract({
  operationId: "deactivateDevice",
  method: "POST",
  path: "/v1/auth/devices/{deviceId}/deactivate",
  summary: "Deactivate a device",
  tags,
  auth: "customer",
  params: z.object({ deviceId: z.string().min(1).max(64).meta({ description: "The device, from the device list.", example: EX.deviceId }) }),
  success: {
    status: 200,
    description: "Device deactivated.",
    schema: z.object({ deviceId: z.string(), status: z.literal("DEACTIVATED") }).meta({ id: "DeactivateDeviceResponse" }),
  },
  examples: { response: { deviceId: EX.deviceId, status: "DEACTIVATED" } },
  errors: ["auth.tokenInvalid", "device.notFound"],
});
