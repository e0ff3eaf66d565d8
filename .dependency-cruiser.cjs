/**
 * The folder-level dependency rules of docs/architecture.md, checked by dependency-cruiser in
 * `npm test` (scripts/test.mjs, "dependency rules"), with no list of exceptions:
 *  - platform (lib/platform/, db/) imports no context and not the interface: it is the floor every
 *    context stands on (a column's closed set of states is declared beside its table, in db/schema);
 *  - the interface (lib/interface/: the API pipeline, its contracts, the sandbox endpoints' actions) is
 *    the adapter layer above the contexts: it may import them, none of them imports it;
 *  - a context, or the interface, imports a context only through that context's entry
 *    (lib/<context>/index.ts);
 *  - no module imports itself back through others (cycles; scripts/check-import-cycles.mjs keeps
 *    the same rule with type-only imports counted too).
 * test/unit/lint/dependency-rules.test.ts plants each kind of forbidden import and sees it refused.
 */
const CONTEXTS = "identity|payments|compliance|finance|partners|operations";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "platform-imports-no-context",
      severity: "error",
      comment: "lib/platform/ and db/ are below every context and the interface: a context registers itself with platform, never the reverse.",
      from: { path: "^(lib/platform|db)/" },
      to: { path: `^lib/(${CONTEXTS}|interface)/` },
    },
    {
      name: "no-context-imports-interface",
      severity: "error",
      comment: "lib/interface/ (the API pipeline and contracts) is the adapter layer above the contexts: it calls them, they never import it.",
      from: { path: `^lib/(${CONTEXTS})/` },
      to: { path: "^lib/interface/" },
    },
    {
      name: "context-through-entry",
      severity: "error",
      comment: "A context, or the interface, reaches a context only through that context's entry, lib/<context>/index.ts.",
      from: { path: `^lib/(${CONTEXTS}|interface)/` },
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
