// How the web server process is started (npm start, and the benchmark's servers: bench/server.mjs):
// memory settings measured in docs/memory.md.

// Node options, on the command line: V8 refuses most of them in NODE_OPTIONS.
// --heap-growing-percent: V8 sets the next full-GC threshold at up to 4 times the live heap when it
// is allocating fast, and keeps those pages: after the journey bench the server held a 360–510 MB
// heap around 70–110 MB of live objects. 50 % lets the old generation grow to 1.5 times what
// survived the last full collection; it caps nothing (a larger live heap, a list import, still
// fits) and costs more frequent full collections, mostly marked concurrently.
export const SERVER_NODE_ARGS = ["--heap-growing-percent=50"];

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
