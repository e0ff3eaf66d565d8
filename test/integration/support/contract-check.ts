import type { z } from "zod";
import { allContracts } from "@/lib/interface/api/contracts";
import { ErrorEnvelopeSchema } from "@/lib/interface/api/schemas";
import type { Contract } from "@/lib/interface/http/contract";

/**
 * Every real response the integration client receives is parsed against the contract of the
 * operation it answers: a success answer against the contract's success schema
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
  if (status < 300 && !successStatuses(contract).includes(status)) {
    throw new ContractMismatch(`${method} ${path} answered ${status}; ${contract.operationId}'s contract answers ${successStatuses(contract).join(" or ")}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
    throw new ContractMismatch(`${method} ${path} answered ${status} not matching ${what}: ${issues}`);
  }
  // An object schema drops keys it does not declare: a key a success answer has and the parse
  // dropped is a field the contract does not promise (a leak, or a field the OpenAPI document lacks).
  // The error envelope's details are free-form per code (decisions section 8).
  const undeclared = status < 300 ? droppedKeys(body, parsed.data) : [];
  if (undeclared.length > 0) throw new ContractMismatch(`${method} ${path} answered ${status} with fields ${what} does not declare: ${undeclared.join(", ")}`);
}

/** The success statuses an operation answers with: its own and any other its contract documents (cancel's 202 beside 200). */
function successStatuses(contract: Contract): number[] {
  return [contract.success.status, ...Object.keys(contract.examples?.otherResponses ?? {}).map(Number)];
}

/** Paths of the object keys present in `sent` and absent from `parsed` (what the schema stripped). */
function droppedKeys(sent: unknown, parsed: unknown, at = ""): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((item, i) => droppedKeys(item, parsed[i], `${at}[${i}]`));
  if (!isObject(sent) || !isObject(parsed)) return [];
  return Object.keys(sent).flatMap((key) => {
    const path = at ? `${at}.${key}` : key;
    return key in parsed ? droppedKeys(sent[key], parsed[key], path) : [path];
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
