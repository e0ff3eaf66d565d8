import { Agent, request } from "undici";
import { pinnedLookup, systemResolver, type Resolver } from "./url-policy";

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  /** Sandbox (or WEBHOOK_ALLOW_PRIVATE): private addresses allowed, the name still resolved once. */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Aborts the POST early (the delivery job's hard timeout). */
  signal?: AbortSignal;
  /** How much of the response body to read before cancelling the rest. */
  maxBodyBytes: number;
  resolve?: Resolver;
}

export interface PostResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Bytes of the response body read (never much more than maxBodyBytes). */
  bytesRead: number;
}

// One connection pool per resolver and policy, so deliveries reuse connections; undici (the
// package, not Node's bundled copy, for its Agent class) lets the socket take our lookup.
const agents = new WeakMap<Resolver, Map<boolean, Agent>>();

function agentFor(resolve: Resolver, allowPrivate: boolean): Agent {
  let byPolicy = agents.get(resolve);
  if (!byPolicy) agents.set(resolve, (byPolicy = new Map()));
  let agent = byPolicy.get(allowPrivate);
  if (!agent) byPolicy.set(allowPrivate, (agent = new Agent({ connect: { lookup: pinnedLookup(allowPrivate, resolve) } })));
  return agent;
}

/**
 * POSTs a webhook: connects only to the address the policy checked (no redirect followed), reads
 * at most `maxBodyBytes` of the answer and cancels the rest, so a huge or endless response costs
 * neither memory nor time beyond the timeout.
 */
export async function postWebhook(url: string, options: PostOptions): Promise<PostResult> {
  const res = await request(url, {
    method: "POST",
    headers: options.headers,
    body: options.body,
    dispatcher: agentFor(options.resolve ?? systemResolver, options.allowPrivate),
    signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs),
  });
  let bytesRead = 0;
  try {
    for await (const chunk of res.body) {
      bytesRead += (chunk as Buffer).length;
      if (bytesRead >= options.maxBodyBytes) break;
    }
  } catch {
    // A body cut short (reset, timeout) does not change the status the endpoint already sent.
  } finally {
    res.body.destroy();
  }
  return { status: res.statusCode, headers: res.headers, bytesRead };
}
