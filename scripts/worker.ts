// npm run worker: runs the durable job worker as its own process (PostgreSQL only: PGlite is single-process).
import { closeDb } from "@/db";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { installStartSteps } from "@/lib/operations/runtime/start-steps";
import { startWorkerLoop } from "@/lib/platform/jobs/run-loop";
import { logger } from "@/lib/platform/log";
import { ready } from "@/lib/platform/ready";
import { checkStartup } from "@/lib/operations/runtime/startup-check";

async function main(): Promise<void> {
  // The same start-up check as the web server's: the worker is what sends OTP mail.
  const config = await checkStartup();
  if (!config.DATABASE_URL) {
    console.error("npm run worker needs DATABASE_URL: the embedded PGlite database belongs to the web process.");
    process.exit(2);
  }
  installStartSteps();
  const loop = startWorkerLoop(ready, jobRegistry);
  logger().info("worker started");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, async () => {
      logger().info({ signal }, "worker stopping");
      await loop.stop();
      await closeDb();
      process.exit(0);
    });
  }
}

void main();
