#!/usr/bin/env node
/**
 * Fails when the modules under lib/, db/, app/ and components/ import one another in a cycle:
 * a cycle makes load order matter and hides a missing layer.
 * db/ is in scope so that a schema file typing a column with a type from a lib/ module that reads
 * the database is caught (column types live in leaf modules). Imports are read with the TypeScript
 * compiler we already depend on (its pre-processor and module resolution honour tsconfig's
 * `@/` paths), rather than adding a graph tool for one check. Type-only imports count too: they
 * are still a dependency of one module's meaning on the other's.
 * Usage: node scripts/check-import-cycles.mjs [dir ...]   (default: lib db app components)
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ["lib", "db", "app", "components"];

const configFile = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const files = dirs.flatMap((d) => sources(path.join(root, d)));
const inScope = new Set(files);
const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName;
    if (resolved && inScope.has(path.resolve(resolved))) targets.add(path.resolve(resolved));
  }
  graph.set(file, [...targets]);
}

// Tarjan's strongly connected components: every component of more than one module (or a module
// importing itself) is a cycle.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function visit(v) {
  const s = { index, low: index, onStack: true };
  index += 1;
  state.set(v, s);
  stack.push(v);
  for (const w of graph.get(v)) {
    const t = state.get(w);
    if (!t) {
      visit(w);
      s.low = Math.min(s.low, state.get(w).low);
    } else if (t.onStack) s.low = Math.min(s.low, t.index);
  }
  if (s.low !== s.index) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    state.get(w).onStack = false;
    component.push(w);
  } while (w !== v);
  if (component.length > 1 || graph.get(v).includes(v)) cycles.push(component);
}
for (const file of files) if (!state.has(file)) visit(file);

/** One concrete loop through a component, for the message: a → b → ... → a. */
function loopThrough(component) {
  const members = new Set(component);
  const start = component[component.length - 1];
  const seen = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (w === start) {
        const chain = [v];
        for (let p = seen.get(v); p; p = seen.get(p)) chain.unshift(p);
        return [...chain, start];
      }
      if (members.has(w) && !seen.has(w)) {
        seen.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

const rel = (f) => path.relative(root, f);
if (cycles.length === 0) {
  console.log(`import cycles: none among ${files.length} modules in ${dirs.join(", ")}`);
} else {
  for (const component of cycles) {
    console.error(`import cycle (${component.length} modules): ${loopThrough(component).map(rel).join(" -> ")}`);
    console.error(`  members: ${component.map(rel).sort().join(", ")}`);
  }
  process.exit(1);
}
