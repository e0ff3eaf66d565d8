/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded with Node's require, not bundled: PGlite ships WASM and data files, argon2 a native addon,
  // pino worker-thread transports.
  // xmllint-wasm loads its .wasm file from its own directory.
  // date-holidays: its parser brings moment-timezone (every zone's history, 0.7 MB of JSON) and moment
  // with every locale (a bundler cannot tell which its dynamic require needs); bundled, two chunks
  // each held a copy of its 1.4 MB source as two-byte strings (docs/memory.md).
  // prom-client: one copy of its registry per process, not one per route bundle. The OpenTelemetry
  // SDK loads its exporters (gRPC among them) with Node's require, loaded only when tracing is on.
  // city-timezones (1.9 MB of JSON) and countries-and-timezones: the tables behind the customer's time
  // zone, read by the API, the pages and the worker; one copy in Node's module cache, not one per route.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "@opentelemetry/sdk-node",
    "city-timezones",
    "countries-and-timezones",
    "date-holidays",
    "pino",
    "postgres",
    "prom-client",
    // tesseract.js starts its OCR in a worker thread from a script file of its own, and reads the
    // traineddata from the npm package's directory: both must stay files on disk.
    "tesseract.js",
    "@tesseract.js-data/eng",
    // The face model reads its weights and .wasm files from the packages' directories.
    "@vladmandic/face-api",
    "@tensorflow/tfjs",
    "@tensorflow/tfjs-backend-wasm",
    "xmllint-wasm",
  ],
  poweredByHeader: false,
  // Lets several servers (parallel test runs, benchmarks) build side by side in one checkout.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  // The build type-checks the application only; tests are checked by `npm run typecheck`. npm test
  // (scripts/test.mjs) builds with NEXT_BUILD_TYPECHECK=off and type-checks the whole tree, the
  // build's .next/types included, right after: the build's own check was a second pass over the
  // same files (about 38 s of CPU).
  typescript: { tsconfigPath: "tsconfig.next.json", ignoreBuildErrors: process.env.NEXT_BUILD_TYPECHECK === "off" },
  typedRoutes: false,
  // Console forms and actions: 1 MiB, also enforced (as a 413 page, not Next's 500) by the proxy's
  // CONSOLE_BODY_MAX_BYTES in lib/platform/http/request-guard.ts: keep the two equal.
  // The proxy sees every page request (proxy.ts's matcher; not the API), so Next
  // buffers each such body for it, dropping what passes this cap. Twice the API's MAX_BODY_BYTES
  // (lib/platform/http/body.ts), from when the API went through the proxy too: no request holds 10 MB (the default).
  experimental: {
    serverActions: { bodySizeLimit: "1mb" },
    proxyClientMaxBodySize: 2 * 1024 * 1024,
    // Route bundles load on a route's first request instead of all at start (Next's memory guide,
    // "Preloading Entries"): each route carries its own copy of the shared code, so a process that
    // serves a few routes (the API, not the console) holds tens of MB less (docs/memory.md).
    preloadEntriesOnStart: false,
  },
};

export default nextConfig;
