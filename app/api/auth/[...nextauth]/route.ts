import NextAuth from "next-auth";
import { authOptions } from "@/lib/operations/console/auth-options";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// /api/auth/*: next-auth's sign-in, sign-out, session and CSRF endpoints for the console.
async function handler(req: Request, ctx: Ctx) {
  return NextAuth(req as never, { params: await ctx.params } as never, await authOptions());
}

export { handler as GET, handler as POST };
