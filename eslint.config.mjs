// ESLint flat config: Next's core-web-vitals and TypeScript rules (eslint-config-next bundles
// typescript-eslint), with the few project choices below.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { effectsThroughUnitRule } from "./scripts/lint/effects-through-unit.mjs";
import { remitPlugin } from "./scripts/lint/state-writes.mjs";

// The project's own rules, under one plugin name (a name is defined once per configuration).
const remit = { rules: { ...remitPlugin.rules, "effects-through-unit": effectsThroughUnitRule } };

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
    // Every state column is written by its machine's module: scripts/lint/state-writes.mjs.
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "components/**/*.tsx", "db/**/*.ts"],
    plugins: { remit },
    rules: { "remit/state-writes": "error" },
  },
  {
    // Jobs, events, postings and batched writes only through the unit's effects: the machinery is
    // the platform's (scripts/lint/effects-through-unit.mjs; the rule itself skips the platform).
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "components/**/*.tsx", "scripts/**/*.ts", "bench/**/*.ts", "*.ts"],
    plugins: { remit },
    rules: { "remit/effects-through-unit": "error" },
  },
  {
    // Tests, benchmarks, the demo and its onboarding read untyped JSON responses and assert their shape.
    files: ["test/**", "e2e/**", "bench/**", "scripts/demo.ts", "scripts/lib/onboarding.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
