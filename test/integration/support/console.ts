import { readdirSync, readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { BASE_URL } from "./client";

/**
 * The operator console over plain HTTP: next-auth's credentials sign-in without a browser, the
 * list of every console page read from app/console (so a new page is covered without editing a
 * test), and raw requests with any method (fetch refuses TRACE).
 */

/** The sandbox's seeded administrator (OPERATOR_EMAIL / OPERATOR_PASSWORD defaults). */
export const ADMIN = { email: "admin@example.com", password: "sandbox-operator-password" } as const;

function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]);
}

/** Signs in through /api/auth (CSRF token, then the credentials callback); the Cookie header to send. */
export async function consoleCookie(who: { email: string; password: string } = ADMIN): Promise<string> {
  const csrf = await fetch(`${BASE_URL}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const res = await fetch(`${BASE_URL}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email: who.email, password: who.password, callbackUrl: `${BASE_URL}/console`, json: "true" }),
  });
  const all = [...jar, ...cookiesOf(res)];
  if (!all.some((c) => c.includes("session-token="))) throw new Error(`console sign-in failed: ${res.status} ${await res.text()}`);
  return all.join("; ");
}

export interface ConsolePage {
  /** URL path with dynamic segments filled in. */
  path: string;
  /** Whether the page is a paginated list (reads ?page=). */
  list: boolean;
  /** Whether it needs a signed-in operator. */
  signedIn: boolean;
}

const APP_CONSOLE = path.join(process.cwd(), "app", "console");

/** Every page.tsx under app/console, route groups dropped, `[param]` replaced from `ids`. */
export function consolePages(ids: Record<string, string>): ConsolePage[] {
  const pages: ConsolePage[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full, [...segments, name]);
      else if (name === "page.tsx") {
        const parts = segments
          .filter((s) => !/^\(.*\)$/.test(s))
          .map((s) => {
            const dynamic = /^\[(.+)\]$/.exec(s);
            if (!dynamic) return s;
            if (!(dynamic[1] in ids)) throw new Error(`no id for the console page segment ${s}`);
            return encodeURIComponent(ids[dynamic[1]]);
          });
        const source = readFileSync(full, "utf8");
        pages.push({
          path: `/console${parts.length ? `/${parts.join("/")}` : ""}`,
          list: source.includes('"page"'),
          signedIn: segments.includes("(signed-in)"),
        });
      }
    }
  };
  walk(APP_CONSOLE, []);
  return pages;
}

export interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with any method and an exact (unnormalised) path, via node:http. */
export function rawRequest(method: string, rawPath: string, opts: { headers?: Record<string, string>; body?: Buffer } = {}): Promise<RawResult> {
  const base = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: rawPath,
        headers: { ...opts.headers, ...(opts.body ? { "content-length": String(opts.body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    // The server may answer (413) and close before the whole body is sent: keep its answer.
    req.on("error", reject);
    if (opts.body) req.end(opts.body);
    else req.end();
  });
}
