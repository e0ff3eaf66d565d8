import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { timed } from "./stage-timing";

/**
 * The on-device face model: @vladmandic/face-api (a maintained fork of face-api.js) on
 * TensorFlow.js's WebAssembly backend, both from npm, nothing native and nothing downloaded:
 * - the weights are the files of the face-api npm package's model/ directory (the Tiny Face
 *   Detector and SSD MobileNet v1 detectors, the 68-point landmark net, and the ResNet-34 face
 *   recognition net ported from dlib, 128-number descriptors), read from node_modules;
 * - the .wasm binaries are those of the @tensorflow/tfjs-backend-wasm npm package.
 * Loaded once per process on first use (about 1.5 s); every comparison after it reuses it.
 * Faces are looked for with the Tiny Face Detector at a small input size chosen by the kind of
 * image (20 to 30 ms of CPU an image here), then, where it finds none, with SSD MobileNet (0.3 s);
 * landmarks and descriptor are computed for the main face only (40 ms; docs/kyc-quality.md).
 */

export interface FaceFound {
  /** The detector's confidence, 0 to 1. */
  confidence: number;
  /** The face's box in the image's pixels. */
  box: { x: number; y: number; width: number; height: number };
  /** 128 numbers; two faces of one person lie within about 0.6 of each other (Euclidean). */
  descriptor: Float32Array;
  /**
   * How far the head is turned left or right: the nose tip's offset from the middle of the
   * jaw line, as a share of the jaw's width (0 facing the camera, about ±0.25 at a clear turn).
   */
  yaw: number;
}

type FaceApi = typeof import("@vladmandic/face-api");
type Tf = typeof import("@tensorflow/tfjs");

const projectRequire = () => createRequire(path.join(process.cwd(), "package.json"));

/** Images are looked at no larger than this (the detector works at 416 pixels anyway). */
const MAX_SIDE = 720;

let loaded: Promise<{ faceapi: FaceApi; tf: Tf }> | null = null;

function load(): Promise<{ faceapi: FaceApi; tf: Tf }> {
  loaded ??= (async () => {
    const require = projectRequire();
    // Node's require, not the bundler's: the packages read their own files from node_modules.
    const tf = require("@tensorflow/tfjs") as Tf;
    const wasm = require("@tensorflow/tfjs-backend-wasm") as typeof import("@tensorflow/tfjs-backend-wasm");
    const faceapi = require("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi;
    const wasmDir = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm"));
    wasm.setWasmPaths(wasmDir + path.sep);
    if (!(await tf.setBackend("wasm"))) throw new Error("the WebAssembly backend of TensorFlow.js did not start");
    await tf.ready();
    const modelDir = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "model");
    await faceapi.nets.tinyFaceDetector.loadFromDisk(modelDir);
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir);
    return { faceapi, tf };
  })().catch((err: unknown) => {
    loaded = null;
    throw err;
  });
  return loaded;
}

/** Whether the model loads here (a failure is the matcher's "cannot run": the case goes to a person). */
export async function faceModelReady(): Promise<true | string> {
  try {
    await load();
    return true;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** What the image is: a document's page (the portrait a small part of it) or a selfie (the face most of the frame). */
export type FaceImageKind = "document" | "selfie";

/**
 * The Tiny Face Detector's input sizes tried in turn, by kind of image, before SSD MobileNet:
 * measured on the 44 documents and 44 selfies of face-pairs.ts (docs/kyc-quality.md), 224 pixels
 * finds the portrait on 43 of 44 pages (as 416 does, at a third of the CPU), 160 the face in 42 of
 * 44 selfies (416: 28), a face filling the frame being what the small input sees best.
 */
const TINY_INPUT_SIZES: Record<FaceImageKind, number[]> = { document: [224, 416], selfie: [160, 224] };

/**
 * The image's main face (the largest one found: a document's small ghost portrait, people behind
 * a selfie, aside) with its landmarks and descriptor, computed for that face alone; null where
 * none is found.
 */
export async function mainFace(image: Buffer, kind: FaceImageKind, minConfidence = 0.3): Promise<FaceFound | null> {
  const { faceapi, tf } = await load();
  const { data, info } = await timed("face.decode", () =>
    sharp(image, { failOn: "none" })
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .removeAlpha()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const input = tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], "int32");
  try {
    // One tensor, typed as face-api's bundled TensorFlow.js declares it.
    const pixels = input as unknown as Parameters<FaceApi["detectAllFaces"]>[0];
    const tensor = input as unknown as Parameters<FaceApi["extractFaceTensors"]>[0];
    let detections: Awaited<ReturnType<FaceApi["detectAllFaces"]>> = [];
    for (const inputSize of TINY_INPUT_SIZES[kind]) {
      detections = await timed("face.detect", async () =>
        faceapi.detectAllFaces(pixels, new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold: minConfidence })),
      );
      if (detections.length) break;
    }
    if (!detections.length)
      detections = await timed("face.detectSsd", async () => faceapi.detectAllFaces(pixels, new faceapi.SsdMobilenetv1Options({ minConfidence })));
    const largest = detections.reduce<(typeof detections)[number] | null>((a, d) => (!a || d.box.area > a.box.area ? d : a), null);
    if (!largest) return null;
    // As face-api's withFaceLandmarks().withFaceDescriptors() does, for this one face.
    return await timed("face.describe", async () => {
      const [crop] = await faceapi.extractFaceTensors(tensor, [largest]);
      const landmarks = (await faceapi.nets.faceLandmark68Net.detectLandmarks(crop).finally(() => crop.dispose())) as InstanceType<FaceApi["FaceLandmarks68"]>;
      const face = faceapi.extendWithFaceLandmarks(faceapi.extendWithFaceDetection({}, largest), landmarks);
      const [aligned] = await faceapi.extractFaceTensors(tensor, [face.landmarks.align(null, { useDlibAlignment: true })]);
      const descriptor = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(aligned).finally(() => aligned.dispose())) as Float32Array;
      const jaw = face.landmarks.getJawOutline();
      const nose = face.landmarks.getNose();
      const left = jaw[0];
      const right = jaw[jaw.length - 1];
      const width = Math.max(1, right.x - left.x);
      const tip = nose[3] ?? nose[nose.length - 1];
      const box = largest.box;
      return {
        confidence: largest.score,
        box: { x: box.x, y: box.y, width: box.width, height: box.height },
        descriptor,
        yaw: (tip.x - (left.x + right.x) / 2) / width,
      };
    });
  } finally {
    input.dispose();
  }
}

/** Euclidean distance between two descriptors. */
export function descriptorDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  return Math.sqrt(sum);
}
