// How the web server process is started (npm start, and the benchmark's servers: bench/server.mjs):
// memory settings measured in docs/memory.md.

// Node options, on the command line: V8 refuses most of them in NODE_OPTIONS.
// --heap-growing-percent: V8 sets the next full-GC threshold at up to 4 times the live heap when it
// is allocating fast, and keeps those pages: after the journey bench the server held a 360–510 MB
// heap around 70–110 MB of live objects. 50 % lets the old generation grow to 1.5 times what
// survived the last full collection; it caps nothing (a larger live heap, a list import, still
// fits) and costs more frequent full collections, mostly marked concurrently.
// PostgreSQL stays at 50 with V8's default young generation: the bench measured 25 and
// --max-semi-space-size=8 there at 5–7 ms more CPU per journey on GC's helper threads for about
// 37 MB less RSS (247 → 211 MB), and 247 MB is already under the 300 MB target (docs/memory.md).
export const SERVER_NODE_ARGS = ["--heap-growing-percent=50"];

// PGlite (no DATABASE_URL) only, where the server held 343 MB after the journey bench:
// --heap-growing-percent=25 (1.25 times what survived) and --max-semi-space-size=8 (a young
// generation of 16 MB instead of up to 32, about twice as many scavenges): 20–25 MB less after the
// journey bench, which PGlite needs to stay under 300 MB.
// --no-liftoff: V8 compiles PGlite's WebAssembly functions (lazily, on first call) with its optimising
// compiler only, instead of its baseline compiler first: the baseline code held 42 MB; the cost is a
// slower first call of each function, and xmllint-wasm (a worker per camt.053 validation) validating
// about 2 s instead of 0.5–1 s.
export const PGLITE_NODE_ARGS = ["--heap-growing-percent=25", "--max-semi-space-size=8", "--no-liftoff"];

/** The server process's Node options for this environment (PGlite when it has no DATABASE_URL). */
export function serverNodeArgs(env) {
  return env.DATABASE_URL ? SERVER_NODE_ARGS : PGLITE_NODE_ARGS;
}

/**
 * glibc malloc keeps what it frees, in the main heap and in threads' own arenas (up to 8 per core).
 * With PGlite they held about 100 MB after start and after the journey bench; at most two arenas,
 * and (PGlite only) blocks from 128 KB mapped on their own, returned when freed, held 59 MB. On
 * PostgreSQL malloc holds about 20 MB: no mmap threshold there, it would only cost system calls.
 * The environment's own values win (spread it first).
 */
export function serverEnv(env) {
  return env.DATABASE_URL ? { MALLOC_ARENA_MAX: "2" } : { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" };
}
