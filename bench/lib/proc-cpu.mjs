// CPU time from /proc (Linux) for the bench's windows: a process's, all its threads
// together, and its main thread's alone, which runs its JavaScript. A CPU profile's samples are
// spaced in wall time, so on a busy machine they stretch while the process waits for a core; the
// CPU a window used is read here, and the profile only says how it divides.
import { readFileSync } from "node:fs";

const TICKS = 100; // USER_HZ: /proc's clock ticks per second on Linux

/** utime + stime of a /proc stat line, in seconds (the 14th and 15th fields; the command may hold spaces). */
export function statSeconds(line) {
  const fields = line.slice(line.lastIndexOf(") ") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

const readText = (file) => readFileSync(file, "utf8");

/**
 * CPU seconds so far of process `pid`: `all` its threads (/proc/PID/stat, which sums them, ended
 * ones included) and its `main` thread (/proc/PID/task/PID/stat); null once it has ended.
 * `read` reads a file's text (tests give a fake /proc).
 */
export function processCpu(pid, read = readText) {
  try {
    return { all: statSeconds(read(`/proc/${pid}/stat`)), main: statSeconds(read(`/proc/${pid}/task/${pid}/stat`)) };
  } catch {
    return null;
  }
}

/** What a process used between two processCpu readings, ms: all threads, the main thread, and the others (all less main). */
export function cpuBetween(before, after) {
  if (!before || !after) return null;
  const all = (after.all - before.all) * 1000;
  const main = (after.main - before.main) * 1000;
  return { all, main, otherThreads: all - main };
}
