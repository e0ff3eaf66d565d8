/**
 * Synthetic identity documents with known data, for the tests and the quality run
 * (scripts/kyc/quality.ts, docs/kyc-quality.md): a passport photo page (TD3) with its MRZ printed
 * in OCR-B (data/kyc/fonts/OCRB.otf, public domain, from Debian's fonts-ocr-b), a drawn portrait
 * at the place the sandbox face matcher looks, and the two selfies of the same drawn face (the
 * second turned). Blur, rotation and JPEG quality vary the photo like a phone camera would.
 */
import path from "node:path";
import sharp from "sharp";
import { matchingForm } from "@/lib/compliance/screening/names";
import { SYNTHETIC_PORTRAIT } from "@/lib/identity/kyc/verification/face-match";

export interface SyntheticPerson {
  lastName: string;
  firstName: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  nationality: string;
  sex: "M" | "F";
  documentNumber: string;
  issuingCountry: string;
  /** YYYY-MM-DD. */
  expiryDate: string;
}

export interface Distortion {
  blur: number;
  /** Degrees, ±5. */
  angle: number;
  quality: number;
}

const FONT_FILE = path.join(process.cwd(), "data/kyc/fonts/OCRB.otf");

const value = (c: string) => (c === "<" ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
/** ICAO 9303 check digit: weights 7, 3, 1 over the character values. */
export function checkDigit(field: string): string {
  return String([...field].reduce((sum, c, i) => sum + value(c) * [7, 3, 1][i % 3], 0) % 10);
}

const mrzName = (v: string) => matchingForm(v).toUpperCase().replace(/ /g, "<");
const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);

/** The two lines of a passport's zone (TD3), check digits computed; `breakDigit` spoils the document number's. */
export function passportMrz(p: SyntheticPerson, opts: { breakDigit?: boolean } = {}): [string, string] {
  const line1 = `P<${p.issuingCountry}${`${mrzName(p.lastName)}<<${mrzName(p.firstName)}`.padEnd(39, "<").slice(0, 39)}`;
  const number = p.documentNumber.padEnd(9, "<").slice(0, 9);
  let numberDigit = checkDigit(number);
  if (opts.breakDigit) numberDigit = String((Number(numberDigit) + 3) % 10);
  const personal = "<".repeat(14);
  const dob = yymmdd(p.dateOfBirth);
  const expiry = yymmdd(p.expiryDate);
  const body = `${number}${numberDigit}${p.nationality}${dob}${checkDigit(dob)}${p.sex}${expiry}${checkDigit(expiry)}${personal}0`;
  const composite = checkDigit(`${number}${numberDigit}${dob}${checkDigit(dob)}${expiry}${checkDigit(expiry)}${personal}0`);
  return [line1, body + composite];
}

/**
 * The three lines of an identity card's zone (TD1, 30 characters, on the card's back), check
 * digits computed; `breakDigit` spoils the document number's.
 */
export function idCardMrz(p: SyntheticPerson, opts: { breakDigit?: boolean } = {}): [string, string, string] {
  const number = p.documentNumber.padEnd(9, "<").slice(0, 9);
  let numberDigit = checkDigit(number);
  if (opts.breakDigit) numberDigit = String((Number(numberDigit) + 3) % 10);
  const optional1 = "<".repeat(15);
  const line1 = `I<${p.issuingCountry}${number}${numberDigit}${optional1}`;
  const dob = yymmdd(p.dateOfBirth);
  const expiry = yymmdd(p.expiryDate);
  const optional2 = "<".repeat(11);
  const composite = checkDigit(`${number}${numberDigit}${optional1}${dob}${checkDigit(dob)}${expiry}${checkDigit(expiry)}${optional2}`);
  const line2 = `${dob}${checkDigit(dob)}${p.sex}${expiry}${checkDigit(expiry)}${p.nationality}${optional2}${composite}`;
  const line3 = `${mrzName(p.lastName)}<<${mrzName(p.firstName)}`.padEnd(30, "<").slice(0, 30);
  return [line1, line2, line3];
}

/** A drawn face (SVG): its colours and proportions follow the seed; `turn` moves the features sideways. */
function faceSvg(seed: number, width: number, height: number, turn = 0): string {
  const r = (n: number) => ((seed * 9301 + n * 49297) % 233280) / 233280;
  const skin = `hsl(${20 + Math.round(r(1) * 20)}, ${40 + Math.round(r(2) * 30)}%, ${35 + Math.round(r(3) * 40)}%)`;
  const hair = `hsl(${Math.round(r(4) * 50)}, 50%, ${10 + Math.round(r(5) * 40)}%)`;
  const cx = width / 2 + turn * width * 0.12;
  const eyeY = height * (0.42 + r(6) * 0.06);
  const eyeGap = width * (0.14 + r(7) * 0.06);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="hsl(${200 + Math.round(r(8) * 40)}, 30%, 85%)"/>
    <ellipse cx="${width / 2}" cy="${height * 0.95}" rx="${width * 0.45}" ry="${height * 0.3}" fill="hsl(${Math.round(r(9) * 360)}, 40%, 35%)"/>
    <ellipse cx="${width / 2}" cy="${height * 0.3}" rx="${width * 0.36}" ry="${height * 0.26}" fill="${hair}"/>
    <ellipse cx="${width / 2}" cy="${height * 0.47}" rx="${width * (0.28 + r(10) * 0.05)}" ry="${height * (0.3 + r(11) * 0.04)}" fill="${skin}"/>
    <ellipse cx="${cx - eyeGap}" cy="${eyeY}" rx="${width * 0.05}" ry="${height * 0.025}" fill="#fff"/>
    <ellipse cx="${cx + eyeGap}" cy="${eyeY}" rx="${width * 0.05}" ry="${height * 0.025}" fill="#fff"/>
    <circle cx="${cx - eyeGap}" cy="${eyeY}" r="${width * 0.025}" fill="#223"/>
    <circle cx="${cx + eyeGap}" cy="${eyeY}" r="${width * 0.025}" fill="#223"/>
    <path d="M ${cx} ${eyeY + height * 0.04} l ${-width * 0.04} ${height * 0.12} l ${width * 0.06} 0" stroke="#533" stroke-width="${width * 0.012}" fill="none"/>
    <ellipse cx="${cx}" cy="${height * (0.66 + r(12) * 0.04)}" rx="${width * (0.08 + r(13) * 0.06)}" ry="${height * 0.025}" fill="hsl(0, 45%, ${30 + Math.round(r(14) * 20)}%)"/>
  </svg>`;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

const W = 1400;
const H = 980;

/** The passport photo page as a JPEG, and the two selfies of the same face. */
export async function syntheticPassport(
  p: SyntheticPerson,
  d: Distortion,
  opts: { seed: number; breakDigit?: boolean; mrz?: [string, string]; portrait?: Buffer },
) {
  const [l1, l2] = opts.mrz ?? passportMrz(p, opts);
  const mrz = await sharp({
    text: { text: `<span foreground="#111">${esc(l1)}\n${esc(l2)}</span>`, fontfile: FONT_FILE, font: "OCR B 40", rgba: true, spacing: 12 },
  })
    .png()
    .toBuffer();
  const mrzMeta = await sharp(mrz).metadata();
  const label = (text: string) =>
    sharp({ text: { text: `<span foreground="#1d2a4d">${esc(text)}</span>`, font: "DejaVu Sans 22", rgba: true, dpi: 96 } })
      .png()
      .toBuffer();
  const pw = Math.round(W * SYNTHETIC_PORTRAIT.width);
  const ph = Math.round(H * SYNTHETIC_PORTRAIT.height);
  // A photograph when given (scripts/kyc/face-pairs.ts), printed paler like a document's portrait; else a drawn face.
  const portrait = opts.portrait
    ? await sharp(opts.portrait).resize(pw, ph, { fit: "cover" }).modulate({ saturation: 0.7 }).linear(0.85, 20).png().toBuffer()
    : await sharp(Buffer.from(faceSvg(opts.seed, pw, ph)))
        .png()
        .toBuffer();
  const lines = [
    `PASSPORT / PASSEPORT    ${p.issuingCountry}    No ${p.documentNumber}`,
    `Surname: ${p.lastName.toUpperCase()}`,
    `Given names: ${p.firstName}`,
    `Nationality: ${p.nationality}    Sex: ${p.sex}`,
    `Date of birth: ${p.dateOfBirth}`,
    `Date of expiry: ${p.expiryDate}`,
  ];
  const labels = await Promise.all(lines.map(label));
  const background = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#eef3ea"/>${Array.from(
    { length: 14 },
    (_, i) => `<path d="M 0 ${60 + i * 45} Q ${W / 2} ${i * 45 - 40} ${W} ${60 + i * 45}" stroke="#d5e2d2" stroke-width="3" fill="none"/>`,
  ).join("")}</svg>`;
  const page = await sharp(Buffer.from(background))
    .composite([
      { input: portrait, left: Math.round(W * SYNTHETIC_PORTRAIT.left), top: Math.round(H * SYNTHETIC_PORTRAIT.top) },
      ...labels.map((input, i) => ({ input, left: Math.round(W * 0.36), top: Math.round(H * 0.12) + i * 56 })),
      { input: mrz, left: Math.max(10, Math.round((W - (mrzMeta.width ?? 0)) / 2)), top: H - (mrzMeta.height ?? 0) - 50 },
    ])
    .flatten({ background: "#ffffff" })
    .png()
    .toBuffer();
  // The phone: a slight turn of the page, some blur, JPEG compression.
  let photo = sharp(page).rotate(d.angle, { background: "#7a7a7a" });
  if (d.blur >= 0.3) photo = photo.blur(d.blur);
  const document = await photo.jpeg({ quality: d.quality }).toBuffer();
  // The selfie frames the face like the portrait (the page's framing guide asks for it).
  const selfie = await sharp(Buffer.from(faceSvg(opts.seed, pw * 2, ph * 2)))
    .jpeg({ quality: 85 })
    .toBuffer();
  const selfieTurn = await sharp(Buffer.from(faceSvg(opts.seed, pw * 2, ph * 2, 0.5)))
    .jpeg({ quality: 85 })
    .toBuffer();
  return { document, selfie, selfieTurn, mrz: [l1, l2] as [string, string] };
}

const CARD_W = 1200;
const CARD_H = 760;

/**
 * An identity card (TD1) photographed front and back: the front with the portrait and the printed
 * fields, the back with the three-line zone in OCR-B; and the two selfies of the same face.
 */
export async function syntheticIdCard(p: SyntheticPerson, d: Distortion, opts: { seed: number; breakDigit?: boolean; portrait?: Buffer }) {
  const lines = idCardMrz(p, opts);
  const mrz = await sharp({
    text: { text: `<span foreground="#111">${lines.map(esc).join("\n")}</span>`, fontfile: FONT_FILE, font: "OCR B 44", rgba: true, spacing: 14 },
  })
    .png()
    .toBuffer();
  const mrzMeta = await sharp(mrz).metadata();
  const label = (text: string) =>
    sharp({ text: { text: `<span foreground="#3a1d4d">${esc(text)}</span>`, font: "DejaVu Sans 22", rgba: true, dpi: 96 } })
      .png()
      .toBuffer();
  const background = (hue: number) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_W}" height="${CARD_H}"><rect width="100%" height="100%" rx="40" fill="hsl(${hue}, 35%, 92%)"/>${Array.from(
        { length: 10 },
        (_, i) => `<circle cx="${CARD_W * 0.7}" cy="${CARD_H * 0.4}" r="${60 + i * 40}" stroke="hsl(${hue}, 30%, 84%)" stroke-width="3" fill="none"/>`,
      ).join("")}</svg>`,
    );
  // The portrait where the sandbox face matcher looks, as on the passport page.
  const pw = Math.round(CARD_W * SYNTHETIC_PORTRAIT.width);
  const ph = Math.round(CARD_H * SYNTHETIC_PORTRAIT.height);
  const portrait = opts.portrait
    ? await sharp(opts.portrait).resize(pw, ph, { fit: "cover" }).modulate({ saturation: 0.7 }).linear(0.85, 20).png().toBuffer()
    : await sharp(Buffer.from(faceSvg(opts.seed, pw, ph)))
        .png()
        .toBuffer();
  const fields = await Promise.all(
    [
      `IDENTITY CARD / CARTE D'IDENTITÉ    ${p.issuingCountry}`,
      `Surname: ${p.lastName.toUpperCase()}`,
      `Given names: ${p.firstName}`,
      `Sex: ${p.sex}    Nationality: ${p.nationality}`,
      `Date of birth: ${p.dateOfBirth}`,
      `Document No: ${p.documentNumber}`,
      `Expiry: ${p.expiryDate}`,
    ].map(label),
  );
  const front = await sharp(background(280))
    .composite([
      { input: portrait, left: Math.round(CARD_W * SYNTHETIC_PORTRAIT.left), top: Math.round(CARD_H * SYNTHETIC_PORTRAIT.top) },
      ...fields.map((input, i) => ({ input, left: Math.round(CARD_W * 0.38), top: Math.round(CARD_H * 0.12) + i * 62 })),
    ])
    .flatten({ background: "#ffffff" })
    .png()
    .toBuffer();
  const address = await label(`Address: ${12 + (opts.seed % 80)} rue des Lilas, ${p.issuingCountry}`);
  const back = await sharp(background(200))
    .composite([
      { input: address, left: Math.round(CARD_W * 0.08), top: Math.round(CARD_H * 0.12) },
      { input: mrz, left: Math.max(10, Math.round((CARD_W - (mrzMeta.width ?? 0)) / 2)), top: CARD_H - (mrzMeta.height ?? 0) - 40 },
    ])
    .flatten({ background: "#ffffff" })
    .png()
    .toBuffer();
  const photograph = async (side: Buffer) => {
    // The phone: a slight turn of the card, some blur, JPEG compression.
    let photo = sharp(side).rotate(d.angle, { background: "#7a7a7a" });
    if (d.blur >= 0.3) photo = photo.blur(d.blur);
    return photo.jpeg({ quality: d.quality }).toBuffer();
  };
  const selfie = await sharp(Buffer.from(faceSvg(opts.seed, pw * 2, ph * 2)))
    .jpeg({ quality: 85 })
    .toBuffer();
  const selfieTurn = await sharp(Buffer.from(faceSvg(opts.seed, pw * 2, ph * 2, 0.5)))
    .jpeg({ quality: 85 })
    .toBuffer();
  return { document: await photograph(front), documentBack: await photograph(back), selfie, selfieTurn, mrz: lines };
}

/** A person for seed n: varied names (accents, hyphens, long ones), birth dates and countries. */
export function syntheticPerson(n: number, now: Date): SyntheticPerson {
  const last = ["Diallo", "Núñez", "Müller", "O'Brien", "Nguyen", "Kowalczyk", "Dupont-Moretti", "Okonkwo", "Smith", "Fernández García", "Haddad", "Rossi"];
  const first = ["Amina", "José Luis", "Zoë", "Liam", "Thi Mai", "Agnieszka", "Jean", "Chinedu", "Emily Rose", "María", "Karim", "Giulia"];
  const countries = ["FRA", "ESP", "DEU", "IRL", "VNM", "POL", "BEL", "NGA", "GBR", "MEX", "LBN", "ITA"];
  const year = 1950 + ((n * 7) % 55);
  const month = String(1 + ((n * 5) % 12)).padStart(2, "0");
  const day = String(1 + ((n * 11) % 28)).padStart(2, "0");
  const expiryYear = now.getUTCFullYear() + 1 + (n % 9);
  const letters = "ABCDEFGHJKLMNPRSTUVWXYZ";
  return {
    lastName: last[n % last.length],
    firstName: first[(n * 5) % first.length],
    dateOfBirth: `${year}-${month}-${day}`,
    nationality: countries[n % countries.length],
    sex: n % 2 ? "F" : "M",
    documentNumber: `${letters[n % letters.length]}${letters[(n * 3) % letters.length]}${String(1000000 + ((n * 7919) % 9000000)).slice(0, 7)}`,
    issuingCountry: countries[n % countries.length],
    expiryDate: `${expiryYear}-${month}-${day}`,
  };
}
