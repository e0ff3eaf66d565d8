/**
 * The kid a compact JWS header names, read strictly but without any header policy and without
 * trusting it: only to choose which device a failed confirmation counts against (spec 5.3).
 */
import { decodeHeaderSegment } from "./compact-jws";

/** Header length bound of the most permissive policy; a longer header names no key. */
const MAX_HEADER_SEGMENT_LENGTH = 2 * 1024;

export function unverifiedKid(token: unknown): string | null {
  if (typeof token !== "string") return null;
  const dot = token.indexOf(".");
  const segment = dot < 0 ? token : token.slice(0, dot);
  if (segment.length > MAX_HEADER_SEGMENT_LENGTH) return null;
  try {
    const { kid } = decodeHeaderSegment(segment);
    return typeof kid === "string" && kid.length > 0 ? kid : null;
  } catch {
    return null;
  }
}
