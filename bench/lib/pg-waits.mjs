// What the database's sessions were doing while a load ran: pg_stat_activity sampled every few
// milliseconds from a connection of its own, each sample counting the server's sessions by what
// they did (running, waiting on a lock or on I/O, idle inside a transaction: waiting for our
// server's next statement). A call whose p99 is far above its CPU waits on one of these.
import postgres from "postgres";

const EVERY_MS = 20;

/** Starts sampling the sessions of `url`'s database; `stop()` gives each state's share of the busy session-samples. */
export function sampleWaits(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const counts = new Map();
  let samples = 0;
  let busy = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await sql`
        select state, wait_event_type, wait_event from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
      samples += 1;
      for (const r of rows) {
        if (r.state === "idle") continue;
        busy += 1;
        const what =
          r.state === "idle in transaction"
            ? "idle in transaction (waiting for the server's next statement)"
            : r.wait_event_type
              ? `${r.wait_event_type}: ${r.wait_event}`
              : "running";
        counts.set(what, (counts.get(what) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop.catch(() => {});
      await sql.end({ timeout: 1 });
      const states = [...counts.entries()].map(([name, n]) => ({ name, share: n / Math.max(1, busy) })).sort((a, b) => b.share - a.share);
      return { samples, busyPerSample: busy / Math.max(1, samples), states };
    },
  };
}
