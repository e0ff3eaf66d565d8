import sharp from "sharp";
import rules from "@/data/kyc/verification.json";
import { config } from "@/lib/platform/config";
import { descriptorDistance, mainFace, type FaceFound } from "./face-model";
import { timed } from "./stage-timing";

/**
 * Face match between the selfie and the document's portrait, with a basic liveness step (a
 * second selfie with the head turned must show the same face, and must not be the same picture).
 * The matcher is chosen by KYC_FACE_MATCHER:
 * - "face-api" (production's default): the on-device face model (face-model.ts); where it cannot
 *   run or finds no face, the check is not made and the session goes to a person, never approved;
 * - "none": no matcher, a person compares the faces;
 * - "sandbox-fingerprint" (sandbox only) compares a perceptual fingerprint of the images, enough for
 * the synthetic documents of the tests and the quality run, whose portrait is the selfie itself;
 * it says nothing about real faces.
 */
export type FaceMatch =
  | { ran: false; reason: string }
  | { ran: true; matcher: string; score: number; threshold: number; matched: boolean; liveness: { passed: boolean; change: number } };

export interface FaceImages {
  /** The document's photo page. */
  document: Buffer;
  selfie: Buffer | null;
  /** The second capture, head turned. */
  selfieTurn: Buffer | null;
}

export interface FaceMatcher {
  readonly name: string;
  compare(images: FaceImages): Promise<FaceMatch>;
}

const none: FaceMatcher = {
  name: "none",
  compare: async () => ({ ran: false, reason: "No face-match model is installed on this service: a person compares the faces." }),
};

/** A 16×16 grey thumbnail's gradient bits (difference hash): close images share most bits. */
async function fingerprint(image: Buffer, region?: { left: number; top: number; width: number; height: number }): Promise<Uint8Array> {
  let img = sharp(image, { failOn: "none" }).rotate();
  if (region) {
    const meta = await sharp(await img.toBuffer()).metadata();
    const w = meta.width ?? 0;
    const h = meta.height ?? 0;
    img = sharp(await img.toBuffer()).extract({
      left: Math.round(w * region.left),
      top: Math.round(h * region.top),
      width: Math.round(w * region.width),
      height: Math.round(h * region.height),
    });
  }
  const { data } = await img.greyscale().resize(17, 16, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  const bits = new Uint8Array(256);
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) bits[y * 16 + x] = data[y * 17 + x] > data[y * 17 + x + 1] ? 1 : 0;
  return bits;
}

const similarity = (a: Uint8Array, b: Uint8Array) => a.reduce((same, bit, i) => same + (bit === b[i] ? 1 : 0), 0) / a.length;

/** Where the synthetic documents (scripts/kyc-documents.ts) print the portrait, as shares of the page. */
export const SYNTHETIC_PORTRAIT = { left: 0.04, top: 0.2, width: 0.26, height: 0.44 };

const sandboxFingerprint: FaceMatcher = {
  name: "sandbox-fingerprint",
  compare: async ({ document, selfie, selfieTurn }) => {
    if (!selfie) return { ran: false, reason: "No selfie was captured." };
    if (!selfieTurn) return { ran: false, reason: "No second selfie (head turned) was captured." };
    const [portrait, first, second] = await Promise.all([fingerprint(document, SYNTHETIC_PORTRAIT), fingerprint(selfie), fingerprint(selfieTurn)]);
    const score = similarity(portrait, first);
    const { minScore, livenessMinChange, livenessMaxChange } = rules.faceMatch;
    // The turned head must change the picture (a replayed photo does not) but stay the same face.
    const change = 1 - similarity(first, second);
    const liveness = { passed: change >= livenessMinChange && change <= livenessMaxChange, change: round(change) };
    return { ran: true, matcher: "sandbox-fingerprint", score: round(score), threshold: minScore, matched: score >= minScore, liveness };
  },
};

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The face model: the score is 1 minus the Euclidean distance between the two faces' descriptors
 * (1 the same picture, about 0.5 and above one person, lower two people; docs/kyc-quality.md has
 * the measured error rates). Liveness: the second selfie must show the same face with the head
 * turned further than the first (the nose's offset along the jaw changes); a replayed or
 * unchanged picture does not turn.
 */
const faceApi: FaceMatcher = {
  name: "face-api",
  compare: async ({ document, selfie, selfieTurn }) => {
    if (!selfie) return { ran: false, reason: "No selfie was captured." };
    if (!selfieTurn) return { ran: false, reason: "No second selfie (head turned) was captured." };
    let faces: [FaceFound | null, FaceFound | null, FaceFound | null];
    try {
      faces = [
        await timed("face.document", () => mainFace(document, "document")),
        await timed("face.selfie", () => mainFace(selfie, "selfie")),
        await timed("face.selfieTurn", () => mainFace(selfieTurn, "selfie")),
      ];
    } catch (err) {
      return { ran: false, reason: `The face model could not run: ${err instanceof Error ? err.message : String(err)}` };
    }
    const [portrait, first, second] = faces;
    if (!portrait) return { ran: false, reason: "No face was found on the document." };
    if (!first) return { ran: false, reason: "No face was found in the selfie." };
    if (!second) return { ran: false, reason: "No face was found in the second selfie (head turned)." };
    const { modelMinScore, livenessMinTurn, livenessSameFaceMinScore } = rules.faceMatch;
    const score = Math.max(0, 1 - descriptorDistance(portrait.descriptor, first.descriptor));
    const turn = Math.abs(second.yaw - first.yaw);
    const sameFace = 1 - descriptorDistance(first.descriptor, second.descriptor) >= livenessSameFaceMinScore;
    return {
      ran: true,
      matcher: "face-api",
      score: round(score),
      threshold: modelMinScore,
      matched: score >= modelMinScore,
      liveness: { passed: sameFace && turn >= livenessMinTurn, change: round(turn) },
    };
  },
};

const PRODUCTION: Record<string, FaceMatcher> = { none, "face-api": faceApi };
const SANDBOX_ONLY: Record<string, FaceMatcher> = { "sandbox-fingerprint": sandboxFingerprint };

/** The configured matcher; a sandbox matcher is not reachable in production (lib/platform/config refuses it at start too). */
export function faceMatcher(): FaceMatcher {
  const c = config();
  const name = c.KYC_FACE_MATCHER ?? (c.sandbox ? "sandbox-fingerprint" : "face-api");
  const available = c.sandbox ? { ...PRODUCTION, ...SANDBOX_ONLY } : PRODUCTION;
  return Object.hasOwn(available, name) ? available[name] : none;
}
