/**
 * Synthetic face pairs for measuring the face matcher (docs/kyc-quality.md), made without it:
 * the faces are the 22 people of the six group photographs that the @vladmandic/face-api npm
 * package ships in demo/ (MIT), at regions marked once below (checked by eye on a contact sheet).
 * - the document: the face, head and shoulders, printed paler as a passport portrait on a
 *   synthetic photo page (synthetic-document.ts), the page then photographed (turned, blurred,
 *   JPEG-compressed);
 * - the selfie: the same person framed wider and off-centre, mirrored like a front camera,
 *   lighter or darker, compressed.
 * A "same person" pair is one person's document and selfie; a "different people" pair is one
 * person's document and another's selfie. Both images of a same-person pair come from one
 * photograph (no second photograph of anyone is on this machine), so same-person pairs are easier
 * than a real passport photo taken years before the selfie: the false non-match rate measured
 * here is a floor. Two people standing in one photograph are surely different people; across
 * photographs the same person could appear twice, so those pairs are reported apart.
 */
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { syntheticPassport, syntheticPerson, type Distortion } from "./synthetic-document";

/** Face regions as x, y, width of the face in the photo scaled to 800 pixels wide. */
const FACES: Array<{ photo: number; x: number; y: number; w: number }> = [
  { photo: 1, x: 172, y: 148, w: 75 },
  { photo: 1, x: 349, y: 174, w: 79 },
  { photo: 1, x: 615, y: 82, w: 84 },
  { photo: 2, x: 603, y: 64, w: 80 },
  { photo: 2, x: 375, y: 93, w: 64 },
  { photo: 2, x: 151, y: 55, w: 63 },
  { photo: 3, x: 244, y: 138, w: 83 },
  { photo: 3, x: 631, y: 121, w: 71 },
  { photo: 3, x: 448, y: 90, w: 92 },
  { photo: 4, x: 277, y: 21, w: 77 },
  { photo: 4, x: 107, y: 76, w: 68 },
  { photo: 4, x: 412, y: 74, w: 71 },
  { photo: 4, x: 532, y: 56, w: 62 },
  { photo: 5, x: 327, y: 45, w: 65 },
  { photo: 5, x: 464, y: 83, w: 66 },
  { photo: 5, x: 586, y: 162, w: 69 },
  { photo: 5, x: 250, y: 173, w: 68 },
  { photo: 5, x: 157, y: 359, w: 71 },
  { photo: 6, x: 283, y: 133, w: 67 },
  { photo: 6, x: 491, y: 127, w: 79 },
  { photo: 6, x: 619, y: 108, w: 88 },
  { photo: 6, x: 104, y: 194, w: 87 },
];

export const FACE_COUNT = FACES.length;

const photoFile = (n: number) =>
  path.join(path.dirname(createRequire(path.join(process.cwd(), "package.json")).resolve("@vladmandic/face-api/package.json")), "demo", `sample${n}.jpg`);

/** A square region around face i, `span` face widths wide, moved by `shift` face widths to the right. */
async function region(i: number, span: number, shift = 0): Promise<Buffer> {
  const f = FACES[i];
  const file = photoFile(f.photo);
  const meta = await sharp(file).metadata();
  const scale = (meta.width ?? 800) / 800;
  const side = Math.round(f.w * span * scale);
  const cx = (f.x + f.w / 2 + f.w * shift) * scale;
  const cy = (f.y + f.w * 0.6) * scale;
  const left = Math.max(0, Math.min((meta.width ?? 0) - side, Math.round(cx - side / 2)));
  const top = Math.max(0, Math.min((meta.height ?? 0) - side, Math.round(cy - side / 2)));
  return sharp(file).extract({ left, top, width: side, height: side }).toBuffer();
}

/** Person i's face framed head and shoulders, for a document's portrait. */
export const portraitOf = (i: number) => region(i % FACES.length, 1.9);

/** Person i's document photo page (variant v: how the page was photographed). */
export async function documentOf(i: number, v: number): Promise<{ document: Buffer; person: ReturnType<typeof syntheticPerson> }> {
  const person = syntheticPerson(i * 7 + v, new Date());
  const portrait = await portraitOf(i);
  const distortion: Distortion = { blur: (v % 3) * 0.5, angle: ((i * 3 + v * 5) % 11) - 5, quality: 45 + ((i * 7 + v * 13) % 45) };
  const { document } = await syntheticPassport(person, distortion, { seed: i, portrait });
  return { document, person };
}

/** Person i's selfie (variant v): framed wider and off-centre, mirrored, lighter or darker. */
export async function selfieOf(i: number, v: number): Promise<Buffer> {
  const face = await region(i % FACES.length, 2.1, v % 2 ? 0.1 : -0.1);
  return sharp(face)
    .resize(640, 640)
    .flop()
    .modulate({ brightness: [1.15, 0.85, 1][v % 3] })
    .jpeg({ quality: 70 + v * 7 })
    .toBuffer();
}

/** The same selfie mirrored back: a stand-in for a head turn (the nose's offset changes sign). */
export async function selfieMirrored(selfie: Buffer): Promise<Buffer> {
  return sharp(selfie).flop().jpeg({ quality: 85 }).toBuffer();
}

export const samePhotograph = (a: number, b: number) => FACES[a].photo === FACES[b].photo;
