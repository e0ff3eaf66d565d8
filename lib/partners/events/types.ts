/** The partners' event types (decisions section 9) and an event to write, declared beside the events table (db/schema/events.ts). */
export { EVENT_TYPES, type EventType, type EmitInput } from "@/db/schema/events";
