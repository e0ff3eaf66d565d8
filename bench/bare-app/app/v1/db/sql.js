import postgres from "postgres";

// One pool per process, kept on globalThis as our app keeps its own (Next bundles each route apart).
// bench/bare-app/start.mjs made the two tables (bench/lib/bare-app.mjs).
const KEY = Symbol.for("bare.sql");
export const sql = (globalThis[KEY] ??= postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} }));
