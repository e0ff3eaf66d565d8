/**
 * Maps a .cpuprofile's frames (bundled, minified .next/server chunks) back to source file:line
 * through the chunks' source maps, read from disk after the run with Node's own SourceMap
 * (node:module): nothing is loaded into the profiled server.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { categoryOf, type CallFrame, type Located } from "./cpu-profile";

/**
 * A source map's source as a path from the project root. Turbopack writes paths relative to the
 * map ("../../../lib/x.ts") and, for generated modules, "…/turbopack:///data/x.json".
 */
export function sourcePath(source: string, mapDir: string, root: string): string {
  let s = decodeURIComponent(source);
  const virtual = s.indexOf("turbopack:///");
  if (virtual >= 0) return s.slice(virtual + "turbopack:///".length).replace(/^\[project\]\//, "");
  if (s.startsWith("file://")) s = fileURLToPath(s);
  // Drizzle's own maps name "../src/x.ts" from its package root, which lands outside it.
  return path.relative(root, path.resolve(mapDir, s)).replace(/^node_modules\/src\//, "node_modules/drizzle-orm/src/");
}

function loadMap(file: string): { map: SourceMap; dir: string } | null {
  try {
    const text = readFileSync(file, "utf8");
    const ref = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text.slice(-4096))?.[1];
    let payload: string | undefined;
    let dir = path.dirname(file);
    if (ref?.startsWith("data:")) payload = Buffer.from(ref.slice(ref.indexOf(",") + 1), "base64").toString("utf8");
    else {
      const mapFile = ref ? path.resolve(dir, decodeURIComponent(ref)) : `${file}.map`;
      if (existsSync(mapFile)) payload = readFileSync(mapFile, "utf8");
      dir = path.dirname(mapFile);
    }
    return payload ? { map: new SourceMap(JSON.parse(payload)), dir } : null;
  } catch {
    return null;
  }
}

/** A Locate for bench/lib/cpu-profile.ts; `root` is the app's directory. */
export function sourceMapLocator(root: string) {
  const maps = new Map<string, { map: SourceMap; dir: string } | null>();
  return (f: CallFrame): Located => {
    const name = f.functionName || "(anonymous)";
    if (f.url.startsWith("wasm") || /^[0-9a-f]{8}$/.test(f.url)) return { name, where: "wasm", category: categoryOf("wasm") };
    if (!f.url || f.url.startsWith("node:")) return { name, where: f.url || "native", category: categoryOf(f.url) };
    const file = f.url.startsWith("file://") ? fileURLToPath(f.url) : f.url;
    if (!maps.has(file)) maps.set(file, file.includes(`${path.sep}.next${path.sep}`) ? loadMap(file) : null);
    const loaded = maps.get(file);
    const entry = loaded?.map.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number; name?: string } | undefined;
    if (loaded && entry?.originalSource !== undefined && entry.originalLine !== undefined) {
      const source = sourcePath(entry.originalSource, loaded.dir, root);
      // A minified name says nothing: the source's own name at that position when the map has it.
      const better = entry.name && name.length <= 2 ? entry.name : name;
      return { name: better, where: `${source}:${entry.originalLine + 1}`, category: categoryOf(source) };
    }
    const rel = path.relative(root, file);
    return { name, where: `${rel}:${f.lineNumber + 1}`, category: categoryOf(rel) };
  };
}
