/**
 * The worker alone: runs the background jobs and scheduled jobs of every context, no API, on the
 * environment the application reads (`DATABASE_URL`, the job store of the queue). The API
 * (`src/main.ts`) only enqueues, since `kit.config.json` says `"worker": "separate"`. Deploy
 * it before the code that enqueues a new job name. Prints "worker started" once it claims. With
 * `HEALTH_PORT`, it answers `/health/live` and `/health/ready` (the database and the job store
 * ready) on that loopback port. SIGTERM ends it within `SHUTDOWN_TIMEOUT` (default 25s); logs
 * follow `LOG_FORMAT` and `LOG_LEVEL`.
 */
import { type Duration, shutdownWithin } from "@kit/kernel";
import { composePlatform } from "../../src/platform/compose-application.ts";
import { readConfig } from "../../src/platform/config.ts";
import { healthEndpoints } from "../../src/platform/http/health.ts";
import {
  platformLogger,
  readinessFailureLine,
} from "../../src/platform/logging/platform-logger.ts";
import { readEnvironment } from "../../src/platform/platform-environment.ts";

const config = readConfig(Deno.env.toObject());
const logger = platformLogger(config);
const environment = await readEnvironment(config, logger);
const application = composePlatform({
  ...environment.options,
  startJobs: true,
  logger,
  worker: { host: Deno.hostname(), pid: Deno.pid },
});
await application.start();
const healthPort = Deno.env.get("HEALTH_PORT");
const endpoints = healthEndpoints({
  readiness: environment.readiness,
  onFailure: readinessFailureLine(logger),
});
const health = healthPort === undefined ? undefined : Deno.serve(
  { hostname: "127.0.0.1", port: Number(healthPort), onListen: () => {} },
  (request) => endpoints(request) ?? new Response(null, { status: 404 }),
);
// SIGINT/SIGTERM: a graceful shutdown, ended anyway after SHUTDOWN_TIMEOUT (default 25s) with
// exit code 1 and a SHUTDOWN_DEADLINE line.
const shutdown = shutdownWithin(async () => {
  await health?.shutdown();
  await application.stop();
  await environment.close();
}, {
  deadline: (Deno.env.get("SHUTDOWN_TIMEOUT") ?? "25s") as Duration,
  exit: Deno.exit,
  logger,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, shutdown);
// The ready line after the signal handlers: a SIGTERM sent as soon as it is read is graceful.
logger.log({
  level: "info",
  component: "app",
  code: "WORKER_STARTED",
  message: `worker started (${environment.description})`,
});
