// ESLint flat config: Next's core-web-vitals and TypeScript rules (eslint-config-next bundles
// typescript-eslint), with the few project choices below.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

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
    // Tests, benchmarks and the demo read untyped JSON responses and assert their shape.
    files: ["test/**", "e2e/**", "bench/**", "scripts/demo.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
