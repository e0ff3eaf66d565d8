import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./schema";
import { retryingFetch, type RetryOptions } from "./retry";

export interface RemitClientOptions {
  /** The service's origin, e.g. http://localhost:3000. */
  baseUrl: string;
  /** The partner's subscription key (Ocp-Apim-Subscription-Key). */
  subscriptionKey: string;
  /** The customer's access token, or a function returning the current one (Core API calls). */
  accessToken?: string | (() => string | undefined);
  /** Retries on 409 in-flight, 429 and 503 (see ./retry.ts); `false` turns them off. */
  retry?: RetryOptions | false;
  /** The fetch to use underneath (default globalThis.fetch). */
  fetch?: (input: Request) => Promise<Response>;
}

/** An operation whose Idempotency-Key header the client fills in: optional to the caller. */
type KeyOptional<Op> = Op extends { parameters: infer Params }
  ? Omit<Op, "parameters"> & {
      parameters: Params extends { header: infer H }
        ? Omit<Params, "header"> & { header?: Omit<H, "Idempotency-Key"> & { "Idempotency-Key"?: string } }
        : Params;
    }
  : Op;

/** The document's paths as the client calls them (Idempotency-Key supplied automatically). */
export type ClientPaths = { [P in keyof paths]: { [M in keyof paths[P]]: KeyOptional<paths[P][M]> } };

export type RemitClient = Client<ClientPaths> & {
  /** Replaces the access token used by later calls (after login or refresh). */
  setAccessToken(token: string | undefined): void;
};

/**
 * A typed client for every operation of the OpenAPI document: `client.POST("/v1/core/quotes",
 * { body })` checks the path, parameters and body, and types `data` and `error` by status.
 * Core API POSTs get an Idempotency-Key (crypto.randomUUID) unless one is given in `headers`.
 */
export function createRemitClient(options: RemitClientOptions): RemitClient {
  let token = options.accessToken;
  const base = options.fetch ?? ((input: Request) => globalThis.fetch(input));
  const client = createClient<ClientPaths>({
    baseUrl: options.baseUrl.replace(/\/$/, ""),
    fetch: options.retry === false ? base : retryingFetch(base, options.retry),
  });
  const credentials: Middleware = {
    onRequest({ request }) {
      request.headers.set("ocp-apim-subscription-key", options.subscriptionKey);
      const current = typeof token === "function" ? token() : token;
      if (current && !request.headers.has("authorization")) request.headers.set("authorization", `Bearer ${current}`);
      return request;
    },
  };
  client.use(credentials);
  return Object.assign(client, {
    setAccessToken(next: string | undefined) {
      token = next;
    },
  });
}
