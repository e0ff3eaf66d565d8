/** Tokens: refresh rotation and reuse, access expiry, logout, subscription-key binding (decisions 2, 3). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertTokenResponse } from "./helpers";
import { advanceClock, call, loginCustomer, registerCustomer, uniqueEmail, assertError } from "../support";

const refresh = (refreshToken: string) => call("POST", "/v1/auth/refresh", { body: { refreshToken } });
const devices = (token: string, key?: string | null) => call("GET", "/v1/auth/devices", { token, key });

test("refresh rotates: 200 token response with new tokens; old access token works until expiry; new refresh token works", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("rot"));
  const first = await refresh(tokens.refreshToken);
  assertTokenResponse(first, 200);
  assert.equal(first.body.subscriptionId, tokens.subscriptionId);
  assert.notEqual(first.body.refreshToken, tokens.refreshToken);
  assert.notEqual(first.body.accessToken, tokens.accessToken);

  assert.equal((await devices(tokens.accessToken)).status, 200, "the previous access token still works");
  assert.equal((await devices(first.body.accessToken)).status, 200);

  const second = await refresh(first.body.refreshToken);
  assertTokenResponse(second, 200);
  assert.equal((await devices(second.body.accessToken)).status, 200);
});

test("reusing a rotated refresh token: 401 auth.tokenRevoked, and the whole family is revoked", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("reuse"));
  const r1 = await refresh(tokens.refreshToken);
  const r2 = await refresh(r1.body.refreshToken);
  assertTokenResponse(r2, 200);

  const replay = await refresh(tokens.refreshToken);
  assertError(replay, 401, "auth.tokenRevoked");

  // The newest refresh token of the family is revoked too, and so are its access tokens.
  assertError(await refresh(r2.body.refreshToken), 401, "auth.tokenRevoked");
  assertError(await devices(r2.body.accessToken), 401, "auth.tokenRevoked");
  assertError(await devices(r1.body.accessToken), 401, "auth.tokenRevoked");
  assertError(await devices(tokens.accessToken), 401, "auth.tokenRevoked");
  // Presenting the replayed token again stays revoked.
  assertError(await refresh(tokens.refreshToken), 401, "auth.tokenRevoked");
});

test("reuse revokes only that family: another login of the same customer keeps working", async () => {
  const { identifier, tokens } = await registerCustomer(uniqueEmail("family"));
  const other = await loginCustomer(identifier);
  assertTokenResponse(other, 200);
  await refresh(tokens.refreshToken);
  assertError(await refresh(tokens.refreshToken), 401, "auth.tokenRevoked");
  assert.equal((await devices(other.body.accessToken)).status, 200);
  assertTokenResponse(await refresh(other.body.refreshToken), 200);
});

test("unknown or malformed refresh token: 401 auth.tokenInvalid", async () => {
  assertError(await refresh("rt_doesnotexist"), 401, "auth.tokenInvalid");
  const { tokens } = await registerCustomer(uniqueEmail("swap"));
  // An access token is not a refresh token.
  assertError(await refresh(tokens.accessToken), 401, "auth.tokenInvalid");
});

test("refresh needs the subscription key; a missing refreshToken is 400 validation.fieldMissing", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("rkey"));
  assertError(await call("POST", "/v1/auth/refresh", { key: null, body: { refreshToken: tokens.refreshToken } }), 401, "auth.subscriptionKeyInvalid");
  const missing = await call("POST", "/v1/auth/refresh", { body: {} });
  assertError(missing, 400, "validation.fieldMissing");
  assert.deepEqual(
    missing.body.error.details.issues.map((i: { field: string }) => i.field),
    ["refreshToken"],
  );
  // The failed calls did not consume the token.
  assertTokenResponse(await refresh(tokens.refreshToken), 200);
});

test("access token expiry: clock +3601 s gives 401 auth.tokenExpired; refresh then works", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("exp"));
  assert.equal((await devices(tokens.accessToken)).status, 200);
  await advanceClock(3601);
  const expired = await devices(tokens.accessToken);
  const error = assertError(expired, 401, "auth.tokenExpired");
  assert.equal(error.hint, "refresh_token");
  const renewed = await refresh(tokens.refreshToken);
  assertTokenResponse(renewed, 200);
  assert.equal((await devices(renewed.body.accessToken)).status, 200);
});

test("refresh token lifetime is 30 days: after that 401 auth.sessionExpired", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("30d"));
  const early = await registerCustomer(uniqueEmail("29d"));
  await advanceClock(29 * 86400);
  // Still alive just before.
  assertTokenResponse(await refresh(early.tokens.refreshToken), 200);
  await advanceClock(86400 + 1);
  assertError(await refresh(tokens.refreshToken), 401, "auth.sessionExpired");
});

test("logout: 204 with no body; then access and refresh tokens are 401 auth.tokenRevoked", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("logout"));
  const res = await call("POST", "/v1/auth/logout", { token: tokens.accessToken });
  assert.equal(res.status, 204, res.text);
  assert.equal(res.text, "");
  assertError(await devices(tokens.accessToken), 401, "auth.tokenRevoked");
  assertError(await refresh(tokens.refreshToken), 401, "auth.tokenRevoked");
  assertError(await call("POST", "/v1/auth/logout", { token: tokens.accessToken }), 401, "auth.tokenRevoked");
});

test("logout after a rotation revokes the newest pair and the older access token", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("logout2"));
  const rotated = await refresh(tokens.refreshToken);
  assert.equal((await call("POST", "/v1/auth/logout", { token: rotated.body.accessToken })).status, 204);
  assertError(await refresh(rotated.body.refreshToken), 401, "auth.tokenRevoked");
  assertError(await devices(tokens.accessToken), 401, "auth.tokenRevoked");
});

test("logout ends that session only", async () => {
  const { identifier, tokens } = await registerCustomer(uniqueEmail("logout3"));
  const other = await loginCustomer(identifier);
  assert.equal((await call("POST", "/v1/auth/logout", { token: tokens.accessToken })).status, 204);
  assert.equal((await devices(other.body.accessToken)).status, 200);
});

test("logout without a bearer token: 401 auth.tokenInvalid", async () => {
  assertError(await call("POST", "/v1/auth/logout"), 401, "auth.tokenInvalid");
  assertError(await call("POST", "/v1/auth/logout", { token: "at_doesnotexist" }), 401, "auth.tokenInvalid");
  assertError(await call("POST", "/v1/auth/logout", { headers: { authorization: "Basic dXNlcjpwYXNz" } }), 401, "auth.tokenInvalid");
});

test("a bearer token is not enough: missing or unknown subscription key is 401 auth.subscriptionKeyInvalid", async () => {
  // A cross-partner check (token issued through partner A presented with partner B's key ->
  // auth.tokenInvalid) needs a second partner, which only the console can create.
  const { tokens } = await registerCustomer(uniqueEmail("bound"));
  assertError(await devices(tokens.accessToken, null), 401, "auth.subscriptionKeyInvalid");
  assertError(await devices(tokens.accessToken, "not-a-partner-key"), 401, "auth.subscriptionKeyInvalid");
  assertError(await devices(tokens.accessToken, ""), 401, "auth.subscriptionKeyInvalid");
  assert.equal((await devices(tokens.accessToken)).status, 200);
});

test("a refresh token is not an access token", async () => {
  const { tokens } = await registerCustomer(uniqueEmail("notaccess"));
  assertError(await devices(tokens.refreshToken), 401, "auth.tokenInvalid");
});
