import { timestamp } from "drizzle-orm/pg-core";

/** Timestamps are always timezone-aware and read as Date. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Creation time, set by the application clock (never the database's now(), see lib/clock.ts). */
export const createdAt = () => tstz("created_at").notNull();
