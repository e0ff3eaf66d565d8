import { connection } from "next/server";
import type { ReactNode } from "react";
import { Providers } from "./providers";

export default async function ConsoleRoot({ children }: { children: ReactNode }) {
  // Every console page renders per request, so Next can put the proxy's CSP nonce on its scripts
  // (a prerendered page would carry no nonce and its scripts would be blocked).
  await connection();
  return <Providers>{children}</Providers>;
}
