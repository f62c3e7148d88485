/**
 * The worker alone on Node 20 or later, as `apps/worker/main.ts` is on Deno: runs the background
 * jobs and scheduled jobs of every context, no HTTP, on the environment the application reads
 * (`process.env`: `DATABASE_URL`, the job store of the queue). SIGTERM ends it within
 * `SHUTDOWN_TIMEOUT` (default 25s); logs follow `LOG_FORMAT` and `LOG_LEVEL`. Bundle it to one
 * file, which needs no `node_modules`:
 *
 * ```sh
 * deno bundle --platform node -o dist/worker.node.mjs apps/worker/main.node.ts
 * DATABASE_URL=postgres://... node dist/worker.node.mjs
 * ```
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
  message: `worker started (${environment.description})`,
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
