import { createRequire } from "node:module";
import path from "node:path";
import { parse, type ParseResult } from "mrz";
import sharp, { type Sharp } from "sharp";
import { createWorker, OEM, PSM, type Worker } from "tesseract.js";
import { timed } from "./stage-timing";

/**
 * Reads the machine-readable zone of a document photo, offline: tesseract.js with the English
 * traineddata shipped by the @tesseract.js-data/eng npm package (langPath points into
 * node_modules, so nothing is downloaded at run time), parsed by the `mrz` package with its
 * autocorrection (O/0, I/1 ... by field type). Tesseract's legacy engine is used: the LSTM model
 * has never seen the OCR-B filler "<" and reads it as K or L, the legacy classifier restricted to
 * the MRZ alphabet reads it right (docs/kyc-quality.md).
 */

export type MrzFormat = ParseResult["format"];

export interface MrzFields {
  documentCode: string | null;
  issuingState: string | null;
  lastName: string | null;
  firstName: string | null;
  documentNumber: string | null;
  nationality: string | null;
  birthDate: string | null;
  sex: string | null;
  expirationDate: string | null;
}

export type MrzRead =
  { read: true; format: MrzFormat; lines: string[]; fields: MrzFields; valid: boolean; invalidFields: string[] } | { read: false; reason: string };

const MRZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<";
/** The traineddata directory of the npm package (4.0.0 carries the legacy engine's data), resolved from the project root like the server and the worker run. */
const langPath = () => path.join(path.dirname(createRequire(path.join(process.cwd(), "package.json")).resolve("@tesseract.js-data/eng/package.json")), "4.0.0");

let worker: Promise<Worker> | null = null;
/** One worker per process: the machine has two cores shared with everything else; reads queue on it. */
function ocr(): Promise<Worker> {
  worker ??= (async () => {
    const w = await createWorker("eng", OEM.TESSERACT_ONLY, { langPath: langPath(), gzip: true, cacheMethod: "none" });
    await w.setParameters({ tessedit_char_whitelist: MRZ_ALPHABET, tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
    return w;
  })().catch((err: unknown) => {
    worker = null;
    throw err;
  });
  return worker;
}

/** Starts the OCR worker ahead of the first read (a worker process at start, the measuring scripts). */
export async function startMrzReader(): Promise<void> {
  await ocr();
}

/** Stops the OCR worker (tests and scripts; a server keeps it). */
export async function stopMrzReader(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await (await w).terminate();
}

const LINE_LENGTHS: Record<number, number> = { 44: 2, 36: 2, 30: 3 };

/** Lines of the OCR text that can belong to a zone, and the windows of them that form one. */
export function mrzCandidates(text: string): string[][] {
  const lines = text
    .split("\n")
    .map((l) => l.replace(/\s+/g, "").toUpperCase())
    .filter((l) => l.length >= 26);
  const out: string[][] = [];
  for (const [length, count] of Object.entries(LINE_LENGTHS).map(([l, c]) => [Number(l), c])) {
    for (let i = 0; i + count <= lines.length; i++) {
      const window = lines.slice(i, i + count);
      // A line off by one or two is usually a filler run read short or long: only the first line
      // (names) of a passport ends in fillers that can take it; check digits guard the others.
      const fitted = window.map((l, j) =>
        l.length === length ? l : j === 0 && Math.abs(l.length - length) <= 3 && l.endsWith("<") ? fitFillers(l, length) : l,
      );
      if (fitted.every((l) => l.length === length)) out.push(fitted);
    }
  }
  return out;
}

const fitFillers = (line: string, length: number) => (line.length > length ? line.slice(0, length) : line.padEnd(length, "<"));

function fieldsOf(result: ParseResult): MrzFields {
  const f = result.fields;
  return {
    documentCode: f.documentCode ?? null,
    issuingState: f.issuingState ?? null,
    lastName: f.lastName ?? null,
    firstName: f.firstName ?? null,
    documentNumber: result.documentNumber ?? f.documentNumber ?? null,
    nationality: f.nationality ?? null,
    birthDate: f.birthDate ?? null,
    sex: f.sex ?? null,
    expirationDate: f.expirationDate ?? null,
  };
}

/**
 * The country codes of a passport's zone (issuing state, nationality) hold letters only; the
 * parser turns a 0 into O there, but OCR-B's D is what the legacy engine most often reads as 0.
 */
function withCountryD(lines: string[]): string[][] {
  if (lines.length !== 2 || lines[0].length !== 44) return [];
  const fix = (line: string, at: number) => line.slice(0, at) + line.slice(at, at + 3).replace(/0/g, "D") + line.slice(at + 3);
  const fixed = [fix(lines[0], 2), fix(lines[1], 10)];
  return fixed.join() === lines.join() ? [] : [fixed];
}

/** Letters and digits OCR-B's shapes make the legacy engine swap (4 and A, 5 and S, 2 and Z ...). */
const LOOKALIKES: Record<string, string> = {
  "0": "O",
  O: "0",
  "1": "I",
  I: "1",
  "2": "Z",
  Z: "2",
  "4": "A",
  A: "4",
  "5": "S",
  S: "5",
  "6": "G",
  G: "6",
  "8": "B",
  B: "8",
};

/**
 * A passport number holds letters and digits alike, so the parser cannot correct it by field type:
 * when its check digit fails, each lookalike swap of one or two of its characters is tried, and
 * kept only if the number's check digit and the composite one then agree (two independent digits;
 * the number must still equal what the customer typed to be approved).
 */
function withNumberSwaps(lines: string[]): string[][] {
  if (lines.length !== 2 || lines[1].length !== 44) return [];
  const number = lines[1].slice(0, 9);
  const at = [...number].map((c, i) => (LOOKALIKES[c] ? i : -1)).filter((i) => i >= 0);
  const swap = (value: string, i: number) => value.slice(0, i) + LOOKALIKES[value[i]] + value.slice(i + 1);
  const variants: string[] = [];
  for (const [k, i] of at.entries()) {
    variants.push(swap(number, i));
    for (const j of at.slice(k + 1)) variants.push(swap(swap(number, i), j));
  }
  return variants.map((v) => [lines[0], v + lines[1].slice(9)]);
}

function parsed(lines: string[]): ParseResult | null {
  try {
    return parse(lines, { autocorrect: true });
  } catch {
    return null;
  }
}

/** The best parse of the candidates: a valid one first, else the one with the fewest invalid fields. */
export function parseCandidates(found: string[][]): MrzRead | null {
  let best: MrzRead | null = null;
  const base = found.flatMap((lines) => [lines, ...withCountryD(lines)]);
  const numberFailed = (lines: string[]) => parsed(lines)?.details.some((d) => !d.valid && d.field === "documentNumberCheckDigit") ?? false;
  const candidates = [...base, ...base.filter(numberFailed).flatMap(withNumberSwaps)];
  for (const lines of candidates) {
    const result = parsed(lines);
    if (!result) continue;
    const invalidFields = result.details.filter((d) => !d.valid && d.field).map((d) => String(d.field));
    const read: MrzRead = { read: true, format: result.format, lines, fields: fieldsOf(result), valid: result.valid, invalidFields };
    if (result.valid) return read;
    if (!best || (best.read && invalidFields.length < best.invalidFields.length)) best = read;
  }
  return best;
}

interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The photo once decoded: turned upright (a phone photo's EXIF orientation), grey, raw pixels; every attempt starts from it. */
async function decodeGrey(image: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(image, { failOn: "none" }).rotate().greyscale().raw().toBuffer({ resolveWithObject: true });
  if (!info.width || !info.height) throw new Error("not an image");
  return { data: oneChannel(data, info.channels), width: info.width, height: info.height };
}

/** The first channel of raw pixels (sharp keeps a grey image in one, but may add a background's channels when it turns one). */
function oneChannel(data: Buffer, channels: number): Uint8Array {
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
  if (channels === 1) return pixels;
  const out = new Uint8Array(pixels.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = pixels[i * channels];
  return out;
}

const fromGrey = (g: GreyImage) => sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } });

async function turned(g: GreyImage, angle: number): Promise<GreyImage> {
  if (!angle) return g;
  const { data, info } = await fromGrey(g).rotate(angle, { background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true });
  return { data: oneChannel(data, info.channels), width: info.width, height: info.height };
}

/** Stretched to the grey range, optionally sharpened (a blurred photo: sharpened edges give the legacy classifier back the strokes it matches on), as PNG for tesseract. */
const forOcr = (pipeline: Sharp, sharpen: boolean) =>
  (sharpen ? pipeline.normalise().sharpen({ sigma: 1.5 }) : pipeline.normalise()).png({ compressionLevel: 1 }).toBuffer();

/** Grey, stretched, at least 1400 px wide: the size tesseract reads OCR-B best at; `angle` straightens a page photographed askew. */
async function preparedPage(grey: GreyImage, region: "bottom" | "whole", angle: number, sharpen: boolean): Promise<Buffer> {
  const page = await turned(grey, angle);
  let pipeline = fromGrey(page);
  // The zone is at the foot of a passport's photo page and of an identity card's back.
  const top = Math.round(page.height * 0.55);
  if (region === "bottom") pipeline = pipeline.extract({ left: 0, top, width: page.width, height: page.height - top });
  if (page.width < 1400) pipeline = pipeline.resize({ width: 1400 });
  else if (page.width > 2400) pipeline = pipeline.resize({ width: 2400 });
  return forOcr(pipeline, sharpen);
}

/** One way of handing the photo to tesseract. */
export interface MrzAttempt {
  region: "bottom" | "whole";
  /** Degrees the page is turned first. */
  angle: number;
  sharpen: boolean;
}

/**
 * The foot of the page as taken (faster, less noise), the whole photo, the foot sharpened (blur),
 * the foot turned 3° either way (a tilt tesseract's own deskew leaves). Each further read only
 * when the previous found no valid zone.
 */
export const MRZ_ATTEMPTS: readonly MrzAttempt[] = [
  { region: "bottom", angle: 0, sharpen: false },
  { region: "whole", angle: 0, sharpen: false },
  { region: "bottom", angle: 0, sharpen: true },
  { region: "bottom", angle: 3, sharpen: false },
  { region: "bottom", angle: -3, sharpen: false },
];

/** Reads the zone of one photo, trying `attempts` in turn until one reads a valid zone. */
export async function readMrz(image: Buffer, attempts: readonly MrzAttempt[] = MRZ_ATTEMPTS): Promise<MrzRead> {
  let grey: GreyImage;
  try {
    grey = await timed("mrz.decode", () => decodeGrey(image));
  } catch {
    return { read: false, reason: "The photo is not an image we can read." };
  }
  let best: MrzRead | null = null;
  for (const { region, angle, sharpen } of attempts) {
    const input = await timed("mrz.prepare", () => preparedPage(grey, region, angle, sharpen));
    const w = await ocr();
    const { data } = await timed("mrz.recognize", () => w.recognize(input));
    const read = await timed("mrz.parse", async () => parseCandidates(mrzCandidates(data.text)));
    if (read?.read && read.valid) return read;
    if (read && (!best || (best.read && read.read && read.invalidFields.length < best.invalidFields.length))) best = read;
  }
  return best ?? { read: false, reason: "No machine-readable zone found on the photo." };
}
