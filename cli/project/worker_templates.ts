/**
 * The entry points `kit generate worker` writes: `apps/worker/main.ts` (Deno) and, in a project
 * with a Node entry point, `apps/worker/main.node.ts`: the worker alone, with its health
 * endpoints, its logger and its shutdown deadline, as `src/main.ts` has them.
 *
 * @module
 */

/** `apps/worker/main.ts`: the worker alone, on Deno. */
export function workerMainFile(): string {
  return `/**
 * The worker alone: runs the background jobs and scheduled jobs of every context, no API, on the
 * environment the application reads (\`DATABASE_URL\`, the job store of the queue). The API
 * (\`src/main.ts\`) only enqueues, since \`kit.config.json\` says \`"worker": "separate"\`. Deploy
 * it before the code that enqueues a new job name. Prints "worker started" once it claims. With
 * \`HEALTH_PORT\`, it answers \`/health/live\` and \`/health/ready\` (the database and the job store
 * ready) on that loopback port. SIGTERM ends it within \`SHUTDOWN_TIMEOUT\` (default 25s); logs
 * follow \`LOG_FORMAT\` and \`LOG_LEVEL\`.
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
logger.log({
  level: "info",
  component: "app",
  code: "WORKER_STARTED",
  message: \`worker started (\${environment.description})\`,
});
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
`;
}

/** `apps/worker/main.node.ts`: the worker alone, on Node. */
export function nodeWorkerMainFile(): string {
  return `/**
 * The worker alone on Node 20 or later, as \`apps/worker/main.ts\` is on Deno: runs the background
 * jobs and scheduled jobs of every context, no HTTP, on the environment the application reads
 * (\`process.env\`: \`DATABASE_URL\`, the job store of the queue). SIGTERM ends it within
 * \`SHUTDOWN_TIMEOUT\` (default 25s); logs follow \`LOG_FORMAT\` and \`LOG_LEVEL\`. Bundle it to one
 * file, which needs no \`node_modules\`:
 *
 * \`\`\`sh
 * deno bundle --platform node -o dist/worker.node.mjs apps/worker/main.node.ts
 * DATABASE_URL=postgres://... node dist/worker.node.mjs
 * \`\`\`
 */
import { hostname } from "node:os";
import process from "node:process";
import { type Duration, shutdownWithin } from "@kit/kernel";
import { composePlatform } from "../../src/platform/compose-application.ts";
import { readConfig } from "../../src/platform/config.ts";
import { platformLogger } from "../../src/platform/logging/platform-logger.ts";
import { readEnvironment } from "../../src/platform/platform-environment.ts";

const config = readConfig(process.env);
const logger = platformLogger(config);
const environment = await readEnvironment(config, logger);
const application = composePlatform({
  ...environment.options,
  startJobs: true,
  logger,
  worker: { host: hostname(), pid: process.pid },
});
await application.start();
logger.log({
  level: "info",
  component: "app",
  code: "WORKER_STARTED",
  message: \`worker started (\${environment.description})\`,
});
const shutdown = shutdownWithin(async () => {
  await application.stop();
  await environment.close();
}, {
  deadline: (process.env.SHUTDOWN_TIMEOUT || "25s") as Duration,
  exit: (code) => process.exit(code),
  logger,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, shutdown);
`;
}
