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
 * Faces are looked for with the Tiny Face Detector at 416 pixels first (0.1 s of CPU an image
 * here), then, where it finds none, with SSD MobileNet (0.5 s): the tiny one misses many faces
 * that fill a selfie's frame, SSD some small portraits (docs/kyc-quality.md).
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

/** The faces in an image, largest first. */
export async function findFaces(image: Buffer, minConfidence = 0.3): Promise<FaceFound[]> {
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
    const image = input as unknown as Parameters<FaceApi["detectAllFaces"]>[0];
    const detect = (options: InstanceType<FaceApi["TinyFaceDetectorOptions"]> | InstanceType<FaceApi["SsdMobilenetv1Options"]>) =>
      faceapi.detectAllFaces(image, options).withFaceLandmarks().withFaceDescriptors();
    let found = await timed("face.tiny", async () => detect(new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: minConfidence })));
    if (found.length === 0) found = await timed("face.ssd", async () => detect(new faceapi.SsdMobilenetv1Options({ minConfidence })));
    return found
      .map((f) => {
        const jaw = f.landmarks.getJawOutline();
        const nose = f.landmarks.getNose();
        const left = jaw[0];
        const right = jaw[jaw.length - 1];
        const width = Math.max(1, right.x - left.x);
        const tip = nose[3] ?? nose[nose.length - 1];
        const box = f.detection.box;
        return {
          confidence: f.detection.score,
          box: { x: box.x, y: box.y, width: box.width, height: box.height },
          descriptor: f.descriptor,
          yaw: (tip.x - (left.x + right.x) / 2) / width,
        };
      })
      .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
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
