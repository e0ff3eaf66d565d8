/**
 * The folder-level dependency rules of docs/architecture.md, checked by dependency-cruiser in
 * `npm test` (scripts/test.mjs, "dependency rules"):
 *  - platform (lib/platform/, db/) imports no context: it is the floor every context stands on;
 *  - a context imports another context only through that context's entry (lib/<context>/index.ts);
 *  - no module imports itself back through others (cycles; scripts/check-import-cycles.mjs keeps
 *    the same rule with type-only imports counted too).
 * Imports that broke the first two rules when they were adopted are listed in
 * .dependency-cruiser-known-violations.json (dependency-cruiser's baseline): they are the work
 * left, and any import not on that list fails. Regenerate the list only when it shrinks:
 *   npx depcruise lib app db components --config .dependency-cruiser.cjs --output-type baseline \
 *     --output-to .dependency-cruiser-known-violations.json
 */
const CONTEXTS = "identity|payments|compliance|finance|partners|operations";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "platform-imports-no-context",
      severity: "error",
      comment: "lib/platform/ and db/ are below every context: a context registers itself with platform, never the reverse.",
      from: { path: "^(lib/platform|db)/" },
      to: { path: `^lib/(${CONTEXTS})/` },
    },
    {
      name: "context-through-entry",
      severity: "error",
      comment: "A context reaches another only through that context's entry, lib/<context>/index.ts.",
      from: { path: `^lib/(${CONTEXTS})/` },
      to: { path: `^lib/(${CONTEXTS})/`, pathNot: ["^lib/$1/", `^lib/(${CONTEXTS})/index\\.ts$`] },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes load order matter and hides a missing layer.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)\\.next|\\.d\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
