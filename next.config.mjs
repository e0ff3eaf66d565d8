/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded with Node's require, not bundled: PGlite ships WASM and data files, argon2 a native addon,
  // pino worker-thread transports.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "pino", "postgres"],
  poweredByHeader: false,
  // Lets several servers (parallel test runs, benchmarks) build side by side in one checkout.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  // The build type-checks the application only; tests are checked by `npm run typecheck`.
  typescript: { tsconfigPath: "tsconfig.next.json" },
  typedRoutes: false,
};

export default nextConfig;
