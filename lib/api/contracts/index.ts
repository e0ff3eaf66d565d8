import type { Contract } from "@/lib/http/contract";
import * as auth from "./auth";
import * as sandbox from "./sandbox";

/** Every operation of the public API, in document order. The OpenAPI document is built from this list. */
export const allContracts: Contract[] = [...Object.values(auth), ...Object.values(sandbox)] as Contract[];
