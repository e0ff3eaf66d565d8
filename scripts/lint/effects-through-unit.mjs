/**
 * ESLint rule "remit/effects-through-unit": jobs, events, postings and batched writes reach the
 * database only through the unit of work's effects (`effectsOf(tx)`, or the unit's context), so
 * that no domain module knows how they are batched. The machinery itself (the statement that
 * writes several writes at once, the queue's inserts and nudges) is the platform's: the folders
 * in PLATFORM (docs/architecture.md, "Platform"). Anywhere else the rule reports an import of one
 * of its names and a call of one.
 */

/** The platform's folders (repository paths): the only ones that may use the machinery. */
export const PLATFORM = ["lib/platform/", "lib/platform/jobs/", "db/"];

/** The machinery's names: db/write-together.ts and lib/platform/jobs/queue.ts. */
export const MACHINERY = ["writeTogether", "withWrites", "enqueue", "insertJob", "jobInsert", "jobInsertWhen", "nudgeJobStatement"];

const WHY =
  "is the platform's effect machinery: add jobs, events, postings and writes through the unit's effects (effectsOf(tx).jobs.schedule, .atCommit, .writeNow)";

/** Whether `file` (absolute, or relative to `cwd`) lies in the platform. */
export function inPlatform(file, cwd) {
  const rel = file.startsWith(cwd) ? file.slice(cwd.length + 1) : file;
  return PLATFORM.some((dir) => rel.split("\\").join("/").startsWith(dir));
}

export const effectsThroughUnitRule = {
  meta: { type: "problem", docs: { description: "effects only through the unit of work" }, schema: [] },
  create(context) {
    if (inPlatform(context.filename, context.cwd)) return {};
    const report = (node, name) => context.report({ node, message: `${name} ${WHY}.` });
    return {
      ImportSpecifier(node) {
        const name = node.imported.type === "Identifier" ? node.imported.name : node.imported.value;
        if (MACHINERY.includes(name)) report(node, name);
      },
      // `const { enqueue } = await import("@/lib/platform/jobs/queue")` and any other way to reach a name.
      "CallExpression > Identifier.callee"(node) {
        if (MACHINERY.includes(node.name)) report(node, node.name);
      },
    };
  },
};
