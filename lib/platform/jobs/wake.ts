import { EventEmitter } from "node:events";

const KEY = Symbol.for("remit.jobs.wake");
type G = typeof globalThis & { [KEY]?: EventEmitter };

/** In-process signal that new jobs may be due (a hint; the worker also polls). */
export function wakeSignal(): EventEmitter {
  const g = globalThis as G;
  return (g[KEY] ??= new EventEmitter());
}

export function wakeWorker(): void {
  wakeSignal().emit("wake");
}
