import type { Contract } from "@/lib/http/contract";
import * as auth from "./auth";
import * as beneficiaries from "./beneficiaries";
import * as events from "./events";
import * as quotes from "./quotes";
import * as kyc from "./kyc";
import * as profile from "./profile";
import * as sandbox from "./sandbox";
import * as transfers from "./transfers";

/** Every operation of the public API, in document order. The OpenAPI document is built from this list. */
export const allContracts: Contract[] = [
  ...Object.values(auth),
  ...Object.values(profile).filter(isContract),
  ...Object.values(kyc).filter(isContract),
  ...Object.values(beneficiaries).filter(isContract),
  ...Object.values(quotes).filter(isContract),
  ...Object.values(transfers).filter(isContract),
  ...Object.values(events).filter(isContract),
  ...Object.values(sandbox),
] as Contract[];

function isContract(value: unknown): boolean {
  return typeof value === "object" && value !== null && "operationId" in value && "method" in value;
}
