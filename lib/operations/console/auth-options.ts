import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { config } from "@/lib/platform/config";
import { clientAddressOf } from "@/lib/identity";
import { signInOperator } from "../operators/sign-in";
import { clock } from "@/lib/platform/clock";
import type { OperatorRole } from "@/lib/operations/operators/records";
import { ready } from "@/lib/platform/ready";
import { serviceSecret } from "@/lib/platform/secrets";
import { SECOND_FACTOR_REQUIRED, signInLockedError } from "./sign-in-errors";

/**
 * Console sign-in (next-auth, credentials against the operators table). Sessions are signed JWT
 * cookies (HttpOnly, SameSite=Lax, Secure on https), 8 hours; next-auth's CSRF token protects
 * sign-in and sign-out; server actions are same-origin only (Next checks the Origin). Wrong
 * passwords lock the operator and the client address for a while (lib/operations/operators/sign-in.ts).
 */
export async function authOptions(): Promise<NextAuthOptions> {
  const db = await ready();
  const c = config();
  process.env.NEXTAUTH_URL ??= `${c.publicBaseUrl}/api/auth`;
  return {
    secret: c.NEXTAUTH_SECRET ?? (await serviceSecret(db, "nextauth")),
    session: { strategy: "jwt", maxAge: 8 * 3600 },
    pages: { signIn: "/console/login", error: "/console/login" },
    providers: [
      CredentialsProvider({
        name: "Operator",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" }, code: { label: "Code", type: "text" } },
        authorize: async (credentials, req) => {
          if (!credentials?.email || !credentials.password) return null;
          const forwardedFor = (req.headers as Record<string, string | undefined> | undefined)?.["x-forwarded-for"];
          const result = await signInOperator(db, {
            email: credentials.email,
            password: credentials.password,
            code: credentials.code || undefined,
            clientAddress: clientAddressOf(forwardedFor),
            now: clock.now(),
          });
          // next-auth turns a thrown error into ?error=<message> on the sign-in page, which shows the wait.
          if (result.kind === "locked") throw new Error(signInLockedError(result.retryAfterSeconds));
          // The right password of an operator with a second factor: the form asks the code.
          if (result.kind === "codeRequired") throw new Error(SECOND_FACTOR_REQUIRED);
          if (result.kind === "wrong") return null;
          const { operator, sessionEpoch } = result;
          return { id: operator.id, email: operator.email, name: operator.name, role: operator.role, sessionEpoch };
        },
      }),
    ],
    callbacks: {
      jwt: async ({ token, user }) => {
        if (user) {
          token.operatorId = user.id;
          token.role = (user as { role?: OperatorRole }).role;
          // Compared with the operator row on every request: a disable or a reset ends the session.
          token.sessionEpoch = (user as { sessionEpoch?: number }).sessionEpoch ?? 0;
        }
        return token;
      },
      session: async ({ session, token }) => ({
        ...session,
        operator: { id: token.operatorId, email: token.email, name: token.name, role: token.role, sessionEpoch: token.sessionEpoch ?? 0 },
      }),
    },
  };
}
