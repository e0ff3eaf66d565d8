// How the web server process is started (npm start, and the benchmark's servers: bench/server.mjs):
// memory settings measured in docs/memory.md.

// Node options, on the command line: V8 refuses most of them in NODE_OPTIONS.
// --heap-growing-percent: V8 sets the next full-GC threshold at up to 4 times the live heap when it
// is allocating fast, and keeps those pages: after the journey bench the server held a 360–510 MB
// heap around 70–110 MB of live objects. 50 % lets the old generation grow to 1.5 times what
// survived the last full collection; it caps nothing (a larger live heap, a list import, still
// fits) and costs more frequent full collections, mostly marked concurrently.
export const SERVER_NODE_ARGS = ["--heap-growing-percent=50"];

// glibc gives each thread that allocates its own malloc arena (up to 8 per core) and keeps their
// freed memory: V8's background compilers (PGlite's WebAssembly) left about 100 MB in four arenas.
// Two arenas held the same work in about 60 MB. The environment's own value wins.
export const SERVER_ENV = { MALLOC_ARENA_MAX: "2" };
