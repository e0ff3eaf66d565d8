import type { z } from "zod";
import { allContracts } from "@/lib/api/contracts";
import { ErrorEnvelopeSchema } from "@/lib/api/schemas";
import type { Contract } from "@/lib/http/contract";

/**
 * Every real response the integration client receives is parsed against the contract of the
 * operation it answers (issue 21 item 5): a success answer against the contract's success schema
 * (the schema the typed client is generated from), an error against the envelope. A response the
 * contracts do not describe (a webview, the console, a non-JSON document) is left alone.
 */
const routes = allContracts.map((contract) => ({
  contract,
  pattern: new RegExp(`^${contract.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

export function contractOf(method: string, path: string): Contract | undefined {
  const pathname = path.split("?")[0];
  return routes.find((r) => r.contract.method === method.toUpperCase() && r.pattern.test(pathname))?.contract;
}

export class ContractMismatch extends Error {}

/** Throws ContractMismatch when `body` (status `status`) is not what `method path`'s contract says. */
export function checkAgainstContract(method: string, path: string, status: number, body: unknown, contentType: string | null): void {
  const contract = contractOf(method, path);
  if (!contract || !(contentType ?? "").includes("json")) return;
  const [schema, what]: [z.ZodType | undefined, string] =
    status >= 400
      ? [ErrorEnvelopeSchema, "the error envelope"]
      : status < 300
        ? [contract.success.schema, `${contract.operationId}'s success schema`]
        : [undefined, ""];
  if (!schema) return;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
    throw new ContractMismatch(`${method} ${path} answered ${status} not matching ${what}: ${issues}`);
  }
}
