import { randomUUID } from "node:crypto";

// Accept the caller's id when it is a plausible token (UUID v4 recommended, spec 5.1); otherwise
// make one, so a hostile header never reaches logs or responses.
const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

export function correlationIdOf(req: Request): string {
  const given = req.headers.get("x-correlation-id");
  return given && SAFE.test(given) ? given : randomUUID();
}
