/**
 * The worker alone: runs the background jobs and scheduled jobs of every context, no API. Deploy
 * it before the code that enqueues a new job name. Needs `DATABASE_URL` (the database the API
 * enqueues in); runs the jobs of the job store the configuration names, as the API does:
 * `REDIS_URL` (relaying the outbox too) or Upstash, else the database's. Prints "worker started"
 * once it claims. With `HEALTH_PORT`, it answers `/health/live` and `/health/ready` (the database
 * and the job store ready) on that loopback port.
 *
 * Its database client has kit's time-outs (the `DATABASE_*` variables `src/platform/config.ts`
 * reads change them): while PostgreSQL is out of reach the worker keeps running and claims again
 * once it is back.
 */
import { type Duration, shutdownWithin } from "@kit/kernel";
import { composePlatform } from "../../src/platform/compose-application.ts";
import { readConfig } from "../../src/platform/config.ts";
import { readEnvironment } from "../../src/platform/platform-environment.ts";
import { healthEndpoints } from "../../src/platform/http/health.ts";
import { configuredRedisJobs } from "../../src/platform/jobs/configured-job-store.ts";
import {
  platformLogger,
  readinessFailureLine,
} from "../../src/platform/logging/platform-logger.ts";

const config = readConfig(Deno.env.toObject());
const logger = platformLogger(config);
if (!config.databaseUrl) {
  logger.log({
    level: "error",
    component: "app",
    code: "DATABASE_URL_REQUIRED",
    message: "apps/worker needs DATABASE_URL (the database the API enqueues in)",
  });
  Deno.exit(1);
}
// The database (migrated), the job store of the queue; the tokens of no request: the worker serves
// none.
const environment = await readEnvironment(config, logger);
const sql = environment.options.sql!;
// The job store the API enqueues in: Redis when the configuration names one, else the database's.
const redisJobs = await configuredRedisJobs(sql, config, logger);
// On the database, each context's jobs are in its own schema (the environment's store, as
// composePlatform's contextJobStore).
const application = composePlatform({
  ...environment.options,
  ...(redisJobs ? { jobStore: redisJobs.store } : {}),
  startJobs: true,
  logger,
  worker: { host: Deno.hostname(), pid: Deno.pid },
});
await application.start();
const healthPort = Deno.env.get("HEALTH_PORT");
const endpoints = healthEndpoints({
  readiness: {
    // The database (its pool observed: kit.db.pool.connections) and, on Redis, the job store.
    ...environment.readiness,
    ...(redisJobs ? { jobs: redisJobs.check } : {}),
  },
  onFailure: readinessFailureLine(logger),
});
const health = healthPort === undefined ? undefined : Deno.serve(
  { hostname: "127.0.0.1", port: Number(healthPort), onListen: () => {} },
  (request) => endpoints(request) ?? new Response(null, { status: 404 }),
);
// SIGINT/SIGTERM: a graceful shutdown (the database client ended within 5 s), ended anyway after
// SHUTDOWN_TIMEOUT (default 25s) with exit code 1 and a SHUTDOWN_DEADLINE line.
const shutdown = shutdownWithin(async () => {
  await health?.shutdown();
  await application.stop();
  await redisJobs?.close();
  await environment.close();
}, {
  deadline: (Deno.env.get("SHUTDOWN_TIMEOUT") ?? "25s") as Duration,
  exit: Deno.exit,
  logger,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, shutdown);
// The ready line after the signal handlers: a SIGTERM sent as soon as it is read is graceful.
logger.log({ level: "info", component: "app", code: "WORKER_STARTED", message: "worker started" });
