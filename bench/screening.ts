/**
 * npm run bench:screening (also part of npm run bench): one screening against the full shipped
 * OFAC list, as the provider runs it (lib/screening/match-index.ts, index built once per list
 * version), over the labelled set of the quality test; and, for the choice recorded in
 * docs/decisions.md, the same names as a pg_trgm similarity query in PGlite. Prints a Markdown
 * section for docs/performance.md.
 */
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { buildIndex, matchSubject, type MatchSubject } from "@/lib/screening/match-index";
import { nameTokens, naturalOrder } from "@/lib/screening/names";
import { commonNames, listedCases, shippedEntries } from "../test/unit/screening/labelled-set";

const ROUNDS = Number(process.env.BENCH_SCREENING_ROUNDS ?? 3);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const entries = shippedEntries();
  const individuals = entries.filter((e) => e.kind === "individual");
  let t = performance.now();
  const index = buildIndex("ofac-sdn", "bench", individuals);
  const buildMs = performance.now() - t;
  const names: MatchSubject[] = [...listedCases(entries).map((c) => c.subject), ...commonNames(entries)];

  // Warm-up (JIT), then timed rounds.
  for (const s of names.slice(0, 50)) matchSubject(index, s, 0.85);
  const times: number[] = [];
  t = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of names) {
      const start = performance.now();
      matchSubject(index, s, 0.85);
      times.push(performance.now() - start);
    }
  }
  const totalS = (performance.now() - t) / 1000;
  times.sort((a, b) => a - b);

  // pg_trgm in PGlite: the alternative candidate retrieval (GIN trigram index, similarity()).
  const pg = await PGlite.create({ extensions: { pg_trgm } });
  await pg.exec("create extension pg_trgm; create table names (entry text, name text); ");
  const rows = individuals.flatMap((e) => [e.name, ...e.aliases.map((a) => a.name)].map((n) => [e.entryId, nameTokens(naturalOrder(n)).join(" ")]));
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await pg.query(`insert into names values ${chunk.map((_, j) => `($${2 * j + 1}, $${2 * j + 2})`).join(",")}`, chunk.flat());
  }
  await pg.exec("create index on names using gin (name gin_trgm_ops); analyze names;");
  const trgm: number[] = [];
  for (const s of names) {
    const q = nameTokens(`${s.firstName} ${s.lastName}`).join(" ");
    const start = performance.now();
    await pg.query("select entry, word_similarity($1, name) as s from names where $1 <% name order by s desc limit 5", [q]);
    trgm.push(performance.now() - start);
  }
  await pg.close();
  trgm.sort((a, b) => a - b);

  const f = (n: number) => n.toFixed(1);
  console.log(`Sanctions screening (bench/screening.ts): ${individuals.length} listed individuals, ${index.names.length} names and aliases, ${index.vocabulary.length} distinct words; the ${names.length} names of the labelled set, ${ROUNDS} rounds, one process, no database in the loop:

| Matcher | p50 ms per name | p99 ms per name | names/s |
|---|---|---|---|
| token-wise Jaro-Winkler, in-memory index (the provider) | ${f(percentile(times, 50))} | ${f(percentile(times, 99))} | ${Math.round(times.length / totalS)} |
| pg_trgm \`<%\` + word_similarity, GIN index, PGlite (candidates only) | ${f(percentile(trgm, 50))} | ${f(percentile(trgm, 99))} | ${Math.round(trgm.length / (trgm.reduce((a, b) => a + b, 0) / 1000))} |

Index build per list version: ${Math.round(buildMs)} ms (once per process and version).`);
}

void main();
