import path from "node:path";

// The benchmark's anchor: a bare Next app, built and started by bench/run.mjs beside our
// server, with the root node_modules' next (no lockfile of its own) and our server's start flags.
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded with Node's require, as in our app (next.config.mjs at the root).
  serverExternalPackages: ["postgres"],
  poweredByHeader: false,
  // The repository root holds the lockfile and node_modules this app resolves.
  outputFileTracingRoot: path.resolve(import.meta.dirname, "../.."),
  turbopack: { root: path.resolve(import.meta.dirname, "../..") },
};

export default nextConfig;
