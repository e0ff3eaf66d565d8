/**
 * One verification's stages through the kyc.verify job, as the worker runs it, database included
 * (docs/kyc-quality.md): N synthetic passports and identity cards (default 12) of the quality
 * run's kind, each submitted through the hosted page's commands for a matching customer, then the
 * job performed, timed per stage (stage-stats.ts): reading the session and its pictures, the MRZ
 * read, the face match, recording the verdict. PGlite in a temp directory, or PostgreSQL with
 * TEST_DB_URL (a database of its own).
 *   npx tsx scripts/kyc/profile-job.ts [N]
 */
import rules from "@/data/kyc/verification.json";
import { freshDb } from "../../test/support/db";
import { customerFor, runVerifyJob, submitDocument } from "../../test/support/kyc-verification";
import { portraitOf, selfieMirrored, selfieOf } from "./face-pairs";
import { stageCollector } from "./stage-stats";
import { syntheticIdCard, syntheticPassport, syntheticPerson } from "./synthetic-document";

async function main() {
  process.env.KYC_DECISION_PROVIDER = "automatic"; // before anything reads the configuration
  process.env.KYC_FACE_MATCHER ??= "face-api";
  const { db, close } = await freshDb();
  const { startMrzReader, stopMrzReader } = await import("@/lib/identity/kyc/verification/mrz-read");
  const { faceModelReady } = await import("@/lib/identity/kyc/verification/face-model");
  await startMrzReader();
  const ready = await faceModelReady();
  if (ready !== true) throw new Error(`the face model cannot run: ${ready}`);
  const n = Number(process.argv[2] ?? 12);
  const stages = stageCollector();
  const statuses: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = syntheticPerson(i, new Date());
    const distortion = { blur: (i % 5) * 0.4, angle: ((i * 37) % 101) / 10 - 5, quality: 35 + ((i * 13) % 60) };
    const card = i % 3 === 2 && rules.idCardCountries.includes(p.issuingCountry);
    const portrait = await portraitOf(i);
    const made = card ? await syntheticIdCard(p, distortion, { seed: i, portrait }) : await syntheticPassport(p, distortion, { seed: i, portrait });
    const selfie = await selfieOf(i, Math.floor(i / 22) % 2);
    const owner = await customerFor(db, p);
    const s = await submitDocument(
      db,
      owner,
      p,
      { document: made.document, documentBack: "documentBack" in made ? made.documentBack : undefined, selfie, selfieTurn: await selfieMirrored(selfie) },
      card ? "ID_CARD" : "PASSPORT",
    );
    stages.start();
    const session = await runVerifyJob(db, s.kycSessionId);
    stages.end();
    statuses.push(session.verification?.status ?? "none");
  }
  stages.stop();
  await stopMrzReader();
  await close();
  console.log(JSON.stringify({ database: process.env.TEST_DB_URL ? "postgresql" : "pglite", statuses, ...stages.summary() }, null, 2));
}

void main();
