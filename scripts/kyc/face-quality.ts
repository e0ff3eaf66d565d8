/**
 * The face matcher's error rates on synthetic pairs (scripts/kyc/face-pairs.ts, docs/kyc-quality.md):
 * every person's document against their own selfie (same person) and against everyone else's
 * selfie (different people), scored as the face-api matcher scores (1 minus the descriptor
 * distance), the false match rate (FMR) and false non-match rate (FNMR) at the threshold of
 * data/kyc/verification.json and at a few others; then the whole comparison of one session
 * (document, selfie, second selfie) timed through the matcher.
 *   npx tsx scripts/kyc/face-quality.ts
 */
import os from "node:os";
import rules from "@/data/kyc/verification.json";
import { FACE_COUNT, documentOf, samePhotograph, selfieMirrored, selfieOf } from "./face-pairs";

const VARIANTS = 2;

async function main() {
  process.env.KYC_FACE_MATCHER = "face-api";
  const { mainFace, descriptorDistance, faceModelReady } = await import("@/lib/identity/kyc/verification/face-model");
  const { faceMatcher } = await import("@/lib/identity/kyc/verification/face-match");
  const loadStart = performance.now();
  const ready = await faceModelReady();
  if (ready !== true) throw new Error(`the face model cannot run: ${ready}`);
  console.log(
    `model loaded in ${Math.round(performance.now() - loadStart)} ms; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );

  const docs: Array<Array<Float32Array | null>> = [];
  const selfies: Array<Array<Float32Array | null>> = [];
  const findTimes: number[] = [];
  let noFaceDocument = 0;
  let noFaceSelfie = 0;
  for (let i = 0; i < FACE_COUNT; i++) {
    docs.push([]);
    selfies.push([]);
    for (let v = 0; v < VARIANTS; v++) {
      const { document } = await documentOf(i, v);
      const selfie = await selfieOf(i, v);
      let t = performance.now();
      const d = await mainFace(document, "document");
      findTimes.push(performance.now() - t);
      t = performance.now();
      const s = await mainFace(selfie, "selfie");
      findTimes.push(performance.now() - t);
      if (!d) noFaceDocument++;
      if (!s) noFaceSelfie++;
      docs[i].push(d?.descriptor ?? null);
      selfies[i].push(s?.descriptor ?? null);
    }
  }
  const same: number[] = [];
  const differentOnePhoto: number[] = [];
  const differentAcross: number[] = [];
  let sameNotScored = 0;
  for (let i = 0; i < FACE_COUNT; i++)
    for (let v = 0; v < VARIANTS; v++)
      for (let j = 0; j < FACE_COUNT; j++)
        for (let w = 0; w < VARIANTS; w++) {
          const d = docs[i][v];
          const s = selfies[j][w];
          if (i === j) {
            if (!d || !s) sameNotScored++;
            else same.push(1 - descriptorDistance(d, s));
          } else if (d && s && v === w) (samePhotograph(i, j) ? differentOnePhoto : differentAcross).push(1 - descriptorDistance(d, s));
        }
  const threshold = rules.faceMatch.modelMinScore;
  const rate = (n: number, of: number) => `${n}/${of} (${of ? ((100 * n) / of).toFixed(1) : "-"} %)`;
  console.log(`faces not found: documents ${noFaceDocument}/${FACE_COUNT * VARIANTS}, selfies ${noFaceSelfie}/${FACE_COUNT * VARIANTS}`);
  for (const t of [0.4, 0.45, threshold, 0.55, 0.6].filter((x, k, all) => all.indexOf(x) === k).sort()) {
    const fnmr = same.filter((s) => s < t).length + sameNotScored;
    const fmrOne = differentOnePhoto.filter((s) => s >= t).length;
    const fmrAcross = differentAcross.filter((s) => s >= t).length;
    console.log(
      `threshold ${t}${t === threshold ? " (configured)" : ""}: FNMR ${rate(fnmr, same.length + sameNotScored)}; FMR same photograph ${rate(fmrOne, differentOnePhoto.length)}, across photographs ${rate(fmrAcross, differentAcross.length)}`,
    );
  }
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `min ${s[0]?.toFixed(3)} p50 ${s[Math.floor(s.length / 2)]?.toFixed(3)} max ${s[s.length - 1]?.toFixed(3)}`;
  };
  console.log(`scores: same person ${stats(same)}; different, one photograph ${stats(differentOnePhoto)}; different, across ${stats(differentAcross)}`);
  const top = [...differentAcross].sort((a, b) => b - a).slice(0, 5);
  console.log(`highest different-people scores across photographs: ${top.map((x) => x.toFixed(3)).join(" ")}`);
  const ft = [...findTimes].sort((a, b) => a - b);
  console.log(
    `one image (decode, detect, landmarks, descriptor): p50 ${Math.round(ft[Math.floor(ft.length / 2)])} ms, p95 ${Math.round(ft[Math.floor(ft.length * 0.95)])} ms`,
  );

  // A whole session's comparison, as the job runs it: the document, the selfie and the second selfie.
  const matcher = faceMatcher();
  const times: number[] = [];
  const cpu: number[] = [];
  let matched = 0;
  let live = 0;
  for (let i = 0; i < FACE_COUNT; i++) {
    const { document } = await documentOf(i, 0);
    const selfie = await selfieOf(i, 0);
    const selfieTurn = await selfieMirrored(selfie);
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await matcher.compare({ document, selfie, selfieTurn });
    const used = process.cpuUsage(c);
    times.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
    if (r.ran && r.matched) matched++;
    if (r.ran && r.liveness.passed) live++;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(
    `sessions (${matcher.name}): matched ${rate(matched, FACE_COUNT)}, liveness (mirrored second selfie) passed ${rate(live, FACE_COUNT)}; time p50 ${Math.round(times[Math.floor(times.length / 2)])} ms, p95 ${Math.round(times[Math.floor(times.length * 0.95)])} ms; CPU time p50 ${Math.round(cpu[Math.floor(cpu.length / 2)])} ms, p95 ${Math.round(cpu[Math.floor(cpu.length * 0.95)])} ms; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
