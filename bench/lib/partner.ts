/**
 * A partner's HTTP calls for the benchmarks: customers onboarded through the public API
 * (scripts/lib/onboarding.ts, as the demo and the tests do), each with a device (scripts/demo.ts)
 * and a VALID beneficiary, and a timed call helper.
 */
import { randomUUID } from "node:crypto";
import { deviceAssertion as clientDeviceAssertion } from "@remit-core/client";
import { httpCaller, onboardCustomer, validBeneficiary } from "../../scripts/lib/onboarding";

export const KEY = "sandbox-demo-key";

export interface Customer {
  token: string;
  device: { privateKey: CryptoKey; deviceId: string; kid: string };
  beneficiaryId: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export function caller(baseUrl: string) {
  return async function call<T = any>(method: string, path: string, token?: string, body?: unknown, expect = 200): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        "ocp-apim-subscription-key": KEY,
        // Uncompressed, as wrk asks for the reads: the per-call table compares our work, not gzip's
        // (the journey's typed client asks for gzip like a partner's would).
        "accept-encoding": "identity",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(method === "POST" && path.startsWith("/v1/core") ? { "idempotency-key": randomUUID() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect) throw new ApiError(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`, res.status);
    return (text ? JSON.parse(text) : null) as T;
  };
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pooled<I, O>(items: I[], limit: number, work: (item: I, i: number) => Promise<O>): Promise<O[]> {
  const out: O[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i], i);
      }
    }),
  );
  return out;
}

/** `count` customers, onboarded (KYC approved), each with a device and a VALID beneficiary. */
export async function onboardCustomers(baseUrl: string, count: number): Promise<Customer[]> {
  process.env.BASE_URL = baseUrl;
  const demo = await import("../../scripts/demo");
  const log = console.log;
  console.log = () => {};
  try {
    return await pooled(Array.from({ length: count }), 4, async () => {
      // A reset keep-alive connection under load (ECONNRESET) is not the bench's subject: a new customer.
      for (let attempt = 1; ; attempt++) {
        try {
          return await onboardOne();
        } catch (err) {
          if (attempt >= 3) throw err;
        }
      }
    });
  } finally {
    console.log = log;
  }

  async function onboardOne(): Promise<Customer> {
    const partner = httpCaller(baseUrl, KEY);
    const { token } = await onboardCustomer(partner, { identifier: `bench.${randomUUID().slice(0, 12)}@example.com` });
    const device = await demo.registerDevice(token);
    return { token, device, beneficiaryId: await validBeneficiary(partner, token) };
  }
}

export const quoteBody = (c: Customer, originAmount = "20.000000") => ({
  originAmount,
  originCurrency: "USD",
  destinationCurrency: "MXN",
  beneficiaryId: c.beneficiaryId,
});
export const submitBody = (c: Customer) => ({
  beneficiaryId: c.beneficiaryId,
  payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: "002010077777777771" },
  purposeOfTransfer: "FAMILY_SUPPORT" as const,
});

export async function deviceAssertion(c: Customer, transfer: Parameters<typeof clientDeviceAssertion>[0]): Promise<string> {
  return clientDeviceAssertion(transfer, c.device);
}
