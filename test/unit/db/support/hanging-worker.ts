/**
 * A worker process for jobs-isolation.test.ts: runs the worker loop on DATABASE_URL with a job
 * kind that never ends, until the test SIGKILLs it mid-job.
 */
import { z } from "zod";
import { startWorkerLoop } from "@/lib/platform/jobs/run-loop";
import { installStartSteps } from "@/lib/operations/runtime/start-steps";
import { ready } from "@/lib/platform/ready";

installStartSteps();
startWorkerLoop(ready, {
  "test.hold": {
    kind: "test.hold",
    schema: z.object({ tag: z.string() }).loose(),
    perform: () => new Promise<void>(() => {}),
  },
});
