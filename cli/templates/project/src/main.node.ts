/**
 * Serves the application on Node 20 or later (`deno task build:node`, then
 * `node $nodeBundle$`) on `HOST`:`PORT` (default 127.0.0.1:8000): its routes, the health
 * endpoints (`/health/live`, `/health/ready`; `/health` is liveness), the OpenAPI document at
 * `/openapi.json` and the API docs page at `/docs`. The same platform as `src/main.ts`: with
 * `DATABASE_URL` every context runs on PostgreSQL, migrated at start; without it, in memory.
 * Jobs run in this process unless `kit.config.json` says `"worker": "separate"` and the job
 * store is shared. A request's headers must arrive within `HTTP_HEADERS_TIMEOUT_MS` (default
 * 10000; see docs/operations/http-deadlines.md in kit); readiness, `SHUTDOWN_TIMEOUT`,
 * `RELAY_STALLED_AFTER`, `LOG_FORMAT` and `LOG_LEVEL` as in `src/main.ts`.
 */
import { hostname } from "node:os";
import process from "node:process";
import { serve } from "@hono/node-server";
import { type Duration, shutdownWithin } from "@kit/kernel";
import { InMemoryJobStore } from "@kit/jobs";
import project from "../kit.config.json" with { type: "json" };
import { composePlatform } from "./platform/compose-application.ts";
import { readConfig } from "./platform/config.ts";
import { swaggerUiAssets } from "./platform/http/api-docs.ts";
import { healthEndpoints } from "./platform/http/health.ts";
import { platformFetch } from "./platform/http/platform-fetch.ts";
import { platformLogger, readinessFailureLine } from "./platform/logging/platform-logger.ts";
import { readEnvironment } from "./platform/platform-environment.ts";

const config = readConfig(process.env);
const logger = platformLogger(config);
const environment = await readEnvironment(config, logger);
const separateWorker = (project as { worker?: string }).worker === "separate" &&
  !(environment.options.jobStore instanceof InMemoryJobStore);
const application = composePlatform({
  ...environment.options,
  docs: swaggerUiAssets,
  startJobs: !separateWorker,
  startEvents: true,
  logger,
  worker: { host: hostname(), pid: process.pid },
});
await application.start();
const health = healthEndpoints({
  readiness: {
    ...environment.readiness,
    outbox: application.events.relay.stallCheck({
      stalledAfter: (process.env.RELAY_STALLED_AFTER || "30s") as Duration,
      logger,
    }),
  },
  onFailure: readinessFailureLine(logger),
});

// Every wait has a deadline: a connection that has not sent a request's headers within
// HTTP_HEADERS_TIMEOUT_MS (default 10 s) is answered 408 and closed, one whose whole request
// takes over 60 s too (Node checks every second). Slow clients cannot hold connections open.
const headersTimeout = Number(process.env.HTTP_HEADERS_TIMEOUT_MS || 10_000);
if (!(Number.isInteger(headersTimeout) && headersTimeout > 0)) {
  console.error(
    `HTTP_HEADERS_TIMEOUT_MS must be a number of milliseconds > 0, got '${process.env.HTTP_HEADERS_TIMEOUT_MS}'`,
  );
  process.exit(1);
}
const server = serve(
  {
    fetch: platformFetch(application, [health]),
    hostname: config.host,
    port: config.port,
    serverOptions: {
      headersTimeout,
      requestTimeout: Math.max(headersTimeout, 60_000),
      connectionsCheckingInterval: Math.min(headersTimeout, 1_000),
    },
  },
  (address) => {
    logger.log({
      level: "info",
      component: "app",
      code: "APP_STARTED",
      message: `listening on http://${config.host}:${address.port} (${environment.description}${
        separateWorker ? ", run by apps/worker" : ""
      })`,
    });
  },
);
// SIGINT/SIGTERM: a graceful shutdown, ended anyway after SHUTDOWN_TIMEOUT (default 25s) with
// exit code 1 and a SHUTDOWN_DEADLINE line.
const shutdown = shutdownWithin(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await application.stop();
  await environment.close();
}, {
  deadline: (process.env.SHUTDOWN_TIMEOUT || "25s") as Duration,
  exit: (code) => process.exit(code),
  logger,
});
server.on("error", async (error: Error & { code?: string }) => {
  if (error.code !== "EADDRINUSE") throw error;
  logger.log({
    level: "error",
    component: "app",
    code: "PORT_IN_USE",
    message:
      `port ${config.port} is in use on ${config.host}: set PORT to another, or stop what holds it`,
  });
  await application.stop();
  await environment.close();
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, shutdown);
