// ESLint flat config: Next's core-web-vitals and TypeScript rules (eslint-config-next bundles
// typescript-eslint), with the few project choices below.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { remitPlugin } from "./scripts/lint/state-writes.mjs";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      ".data/**",
      "db/migrations/**",
      "e2e/artifacts/**",
      "bench/results/**",
      "bench/bare-app/.next/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      // Unused names are errors, except the deliberate `_` prefix.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // Every state column is written by its machine's module (issue 21): scripts/lint/state-writes.mjs.
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "components/**/*.tsx", "db/**/*.ts"],
    plugins: { remit: remitPlugin },
    rules: { "remit/state-writes": "error" },
  },
  {
    // Tests, benchmarks and the demo read untyped JSON responses and assert their shape.
    files: ["test/**", "e2e/**", "bench/**", "scripts/demo.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
