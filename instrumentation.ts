// Runs once when a Next.js server starts, and Next serves nothing until it returns: the start-up
// check comes first (a refused configuration or, in production, a refused SMTP login prints its
// lines and exits 78), then the job worker runs inside the web process by default
// (IN_PROCESS_WORKER=false leaves the jobs to `npm run worker`), and SIGTERM drains the server
// (lib/platform/shutdown.ts). Tracing starts first when OTEL_* asks for it (lib/platform/tracing.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` may load this module to prerender: the build needs no runtime configuration.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // The contexts' start steps that ready() runs (seeds, keys, the sanctions refresh), installed
  // before anything asks for the database: route handlers and the proxy share this process.
  (await import("@/lib/operations/runtime/start-steps")).installStartSteps();
  const { checkStartup } = await import("@/lib/operations/runtime/startup-check");
  const config = await checkStartup();
  // OpenTelemetry only when the OTEL_* variables ask for it: otherwise the SDK is never loaded.
  if (config.tracing) (await import("@/lib/platform/tracing")).startTracing();
  // TRACE, PROPFIND, a `%ff` path... would otherwise be a bare 500 from Next (lib/platform/http/request-guard.ts).
  const guard = await import("@/lib/platform/http/request-guard");
  guard.guardRequestsInNode();
  // Headers over 16 KiB would otherwise be Node's bare 431 with an empty body.
  guard.answerOversizedHeadersInNode();
  // SIGTERM: /readyz 503 at once, kept-alive connections closed, exit within SHUTDOWN_TIMEOUT_SECONDS.
  const { drainOnSigterm } = await import("@/lib/platform/shutdown");
  if (!config.IN_PROCESS_WORKER) return drainOnSigterm(config.SHUTDOWN_TIMEOUT_SECONDS);
  const { ready } = await import("@/lib/platform/ready");
  const { startWorkerLoop } = await import("@/lib/platform/jobs/run-loop");
  const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
  const loop = startWorkerLoop(ready, jobRegistry);
  // The worker stops claiming jobs; one still running when the process exits reruns after its lease.
  drainOnSigterm(config.SHUTDOWN_TIMEOUT_SECONDS, () => void loop.stop());
}
