/**
 * The automatic KYC quality run (docs/kyc-quality.md): N synthetic documents (default 200) with
 * known data, passports and (one in three, for the countries whose cards are checked) identity
 * cards front and back, varied blur, rotation (±5°) and JPEG quality, each verified as the
 * kyc.verify job does (MRZ read, checks, face match with the face model) against a profile that
 * is the document's person, or (one in four) a person differing in date of birth or name. The
 * portrait and the selfie are photographs of one of 22 people (face-pairs.ts); the second selfie
 * is the first mirrored (a stand-in for a head turn: no photograph of anyone turning is here).
 * Reports the MRZ read rate (passports and cards), wrong approvals (a differing profile
 * approved), the share sent to a person, the p50/p95 wall and CPU time of a verification, where
 * it goes (stage-stats.ts) and the load average during the run. The face model and the OCR worker
 * are loaded before the first document, as a server does at start; their one-time cost is reported
 * apart.
 *   npx tsx scripts/kyc/quality.ts [N] [verdicts.json]    (KYC_FACE_MATCHER=sandbox-fingerprint: the drawn faces)
 * With a second argument, each document's verdict is written there (to compare two runs' verdicts).
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import rules from "@/data/kyc/verification.json";
import { portraitOf, selfieMirrored, selfieOf } from "./face-pairs";
import { stageCollector } from "./stage-stats";
import { syntheticIdCard, syntheticPassport, syntheticPerson } from "./synthetic-document";

async function main() {
  process.env.KYC_FACE_MATCHER ??= "face-api";
  const drawn = process.env.KYC_FACE_MATCHER === "sandbox-fingerprint";
  const loadBefore = os.loadavg();
  const { verifyAutomatically } = await import("@/lib/identity/kyc/verification/provider");
  const { startMrzReader, stopMrzReader } = await import("@/lib/identity/kyc/verification/mrz-read");
  // A server loads the face model and starts the OCR worker once, before its first session: so does this run.
  const startCpu = process.cpuUsage();
  const startWall = performance.now();
  await startMrzReader();
  if (!drawn) {
    const { faceModelReady } = await import("@/lib/identity/kyc/verification/face-model");
    const ready = await faceModelReady();
    if (ready !== true) throw new Error(`the face model cannot run: ${ready}`);
  }
  const startCpuUsed = process.cpuUsage(startCpu);
  const oneTime = { wallMs: Math.round(performance.now() - startWall), cpuMs: Math.round((startCpuUsed.user + startCpuUsed.system) / 1000) };
  const stages = stageCollector();
  const n = Number(process.argv[2] ?? 200);
  const now = new Date();
  let read = 0;
  let cards = 0;
  let cardsRead = 0;
  let exact = 0;
  let approved = 0;
  let wrongApprovals = 0;
  let toPerson = 0;
  let documentClear = 0;
  let matching = 0;
  const reasons = new Map<string, number>();
  const verdicts: Array<{ i: number; card: boolean; differs: boolean; read: boolean; status: string; reasons: string[]; face: unknown }> = [];
  for (let i = 0; i < n; i++) {
    const p = syntheticPerson(i, now);
    const distortion = { blur: (i % 5) * 0.4, angle: ((i * 37) % 101) / 10 - 5, quality: 35 + ((i * 13) % 60) };
    const card = i % 3 === 2 && rules.idCardCountries.includes(p.issuingCountry);
    const portrait = drawn ? undefined : await portraitOf(i);
    // The generator's text rendering (pango, fontconfig) failed once under load on this shared
    // machine ("Image to composite must have same dimensions"): a document is made again, never skipped.
    const make = async () =>
      card
        ? await syntheticIdCard(p, distortion, { seed: i, portrait })
        : { ...(await syntheticPassport(p, distortion, { seed: i, portrait })), documentBack: null };
    const made = await make().catch((err: unknown) => {
      console.error(`document ${i}: made again after ${String(err)}`);
      return make();
    });
    const selfie: Buffer = drawn ? made.selfie : await selfieOf(i, Math.floor(i / 22) % 2);
    const doc = { ...made, selfie, selfieTurn: drawn ? made.selfieTurn : await selfieMirrored(selfie) };
    if (card) cards++;
    const differs = i % 4 === 3;
    if (!differs) matching++;
    const profile = differs
      ? i % 8 === 3
        ? {
            firstName: p.firstName,
            lastName: p.lastName,
            dateOfBirth: `${Number(p.dateOfBirth.slice(0, 4)) + 1}${p.dateOfBirth.slice(4)}`,
            nationality: p.nationality,
          }
        : { firstName: "Someone", lastName: p.lastName, dateOfBirth: p.dateOfBirth, nationality: p.nationality }
      : { firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth, nationality: p.nationality };
    const capture = {
      documentType: card ? ("ID_CARD" as const) : ("PASSPORT" as const),
      documentNumber: p.documentNumber,
      issuingCountry: p.issuingCountry,
      expiryDate: p.expiryDate,
      photo: { size: 1, type: "image/jpeg" },
    };
    stages.start();
    const record = await verifyAutomatically({
      kycSessionId: `q${i}`,
      capture,
      profile,
      photos: {
        document: { bytes: doc.document, contentType: "image/jpeg" },
        documentBack: doc.documentBack ? { bytes: doc.documentBack, contentType: "image/jpeg" } : null,
        selfie: { bytes: doc.selfie, contentType: "image/jpeg" },
        selfieTurn: { bytes: doc.selfieTurn, contentType: "image/jpeg" },
      },
      now,
    });
    stages.end();
    const mrzCheck = record.checks?.find((c) => c.check === "checkDigits");
    if (mrzCheck?.passed) {
      read++;
      if (card) cardsRead++;
    }
    verdicts.push({ i, card, differs, read: !!mrzCheck?.passed, status: record.status, reasons: record.reasons ?? [], face: record.face });
    const x = record.extracted;
    if (x?.documentNumber === p.documentNumber && x.dateOfBirth === p.dateOfBirth && x.expiryDate === p.expiryDate && x.nationality === p.nationality) exact++;
    // The document's own checks (everything but the face), for a document matching its profile.
    if (!differs && (record.checks ?? []).every((c) => c.passed || c.check === "faceMatch" || c.check === "liveness")) documentClear++;
    if (record.status === "APPROVED") {
      approved++;
      if (differs) wrongApprovals++;
    } else {
      toPerson++;
      for (const r of record.reasons ?? []) reasons.set(r.split(":")[0], (reasons.get(r.split(":")[0]) ?? 0) + 1);
    }
  }
  await stopMrzReader();
  stages.stop();
  if (process.argv[3]) writeFileSync(process.argv[3], JSON.stringify(verdicts, null, 1));
  const { perVerification, loadAverage1m, stages: byStage } = stages.summary();
  console.log(
    JSON.stringify(
      {
        documents: n,
        faceMatcher: process.env.KYC_FACE_MATCHER,
        identityCards: cards,
        mrzReadRate: `${((read / n) * 100).toFixed(1)} %`,
        mrzReadRatePassports: `${(((read - cardsRead) / (n - cards)) * 100).toFixed(1)} %`,
        mrzReadRateIdentityCards: `${((cardsRead / Math.max(1, cards)) * 100).toFixed(1)} %`,
        // Every field the checks use read exactly as printed (number, birth, expiry, nationality).
        mrzFieldsExact: `${((exact / n) * 100).toFixed(1)} %`,
        approved,
        wrongApprovals,
        toPerson: `${((toPerson / n) * 100).toFixed(1)} %`,
        documentChecksClearOfMatching: `${documentClear} of ${matching} (${((documentClear / matching) * 100).toFixed(1)} %)`,
        reasonsToPerson: Object.fromEntries([...reasons].sort((a, b) => b[1] - a[1])),
        // Wall: what the customer waits for, on this shared machine. CPU: the work, every thread of the process.
        wallMs: perVerification.wallMs,
        cpuMs: perVerification.cpuMs,
        loadAverage1mDuringRun: loadAverage1m,
        cpus: os.cpus().length,
        oneTimeStart: oneTime,
        stages: byStage,
        loadAverageBefore: loadBefore.map((l) => l.toFixed(1)).join(" "),
        loadAverageAfter: os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" "),
      },
      null,
      2,
    ),
  );
}

void main();
