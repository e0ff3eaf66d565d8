// Two (or N) Next production servers behind one port with Node's cluster module (round-robin
// accept in the primary): the scale-out figure of bench/journey.ts. Each worker process runs the
// app and its in-process job worker on the same PostgreSQL database.
//   node bench/cluster.mjs PORT [INSTANCES]
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";

const [port, instances = "2"] = process.argv.slice(2);
if (cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  for (let i = 0; i < Number(instances); i++) cluster.fork();
  // A worker that cannot start (port taken, bad configuration) ends the whole server.
  cluster.on("exit", (_worker, code) => {
    if (code !== 0) stop();
  });
  function stop() {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill("SIGTERM");
    setTimeout(() => process.exit(0), 3000).unref();
  }
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} else {
  const { default: next } = await import("next");
  // The app: BENCH_APP_DIR (another checkout's build, a before/after: bench/server.mjs) or this one.
  const app = next({ dev: false, dir: process.env.BENCH_APP_DIR ?? path.resolve(import.meta.dirname, ".."), hostname: "127.0.0.1", port: Number(port) });
  await app.prepare();
  const handle = app.getRequestHandler();
  http.createServer((req, res) => handle(req, res)).listen(Number(port), "127.0.0.1");
  process.on("SIGTERM", () => process.exit(0));
}
