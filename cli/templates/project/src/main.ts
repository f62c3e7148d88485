/**
 * Serves the application (`deno task dev`) on `PORT` (default 8000): its routes, the health
 * endpoints (`/health/live`, `/health/ready`; `/health` is liveness), the OpenAPI document at
 * `/openapi.json` and the API docs page at `/docs`. With `DATABASE_URL` every context runs on
 * PostgreSQL, migrated at start; without it, in memory. The outbox is relayed to the event
 * handlers. The background and scheduled jobs run in this process, unless `kit.config.json` says
 * `"worker": "separate"` (`kit generate worker` writes it) and the job store is shared (not in
 * memory): then `apps/worker` runs them and this process only enqueues.
 *
 * Every wait has a deadline: the database's (`DATABASE_*_TIMEOUT`, see `config.ts`), readiness
 * red while the database is out of reach or its pool stalled, or while the relay makes no
 * progress for `RELAY_STALLED_AFTER` (default 30s), and SIGTERM ends the process within
 * `SHUTDOWN_TIMEOUT` (default 25s). Logs: one line per problem (`LOG_FORMAT`, `LOG_LEVEL`).
 */
import { type Duration, shutdownWithin } from "@kit/kernel";
import { InMemoryJobStore } from "@kit/jobs";
import project from "../kit.config.json" with { type: "json" };
import { grants } from "./platform/auth/role.ts";
import { signToken } from "./platform/auth/tokens.ts";
import { composePlatform } from "./platform/compose-application.ts";
import { readConfig } from "./platform/config.ts";
import { swaggerUiAssets } from "./platform/http/api-docs.ts";
import { healthEndpoints } from "./platform/http/health.ts";
import { serveApplication } from "./platform/http/serve.ts";
import { platformLogger, readinessFailureLine } from "./platform/logging/platform-logger.ts";
import { readEnvironment } from "./platform/platform-environment.ts";

const config = readConfig(Deno.env.toObject());
// One line per problem, repeats summarised; LOG_FORMAT=json for a log shipper, LOG_LEVEL.
const logger = platformLogger(config);
const environment = await readEnvironment(config, logger);
// A job store in memory is seen by this process only: its jobs run here, worker or not.
const separateWorker = (project as { worker?: string }).worker === "separate" &&
  !(environment.options.jobStore instanceof InMemoryJobStore);
const application = composePlatform({
  ...environment.options,
  docs: swaggerUiAssets,
  startJobs: !separateWorker,
  startEvents: true,
  logger,
  worker: { host: Deno.hostname(), pid: Deno.pid },
});
await application.start();
// Ready while the database and the job store answer and the relay makes progress.
const health = healthEndpoints({
  readiness: {
    ...environment.readiness,
    outbox: application.events.relay.stallCheck({
      stalledAfter: (Deno.env.get("RELAY_STALLED_AFTER") ?? "30s") as Duration,
      logger,
    }),
  },
  onFailure: readinessFailureLine(logger),
});
// The developer belongs to one tenant, so that their requests reach its data by default, and
// holds every role the platform grants, so that the token calls every route. Printed before the
// address, so that whoever waits for "listening" has the token already.
const roles = Object.keys(grants);
const token = environment.options.sql ? undefined : await signToken(environment.options.jwtSecret, {
  sub: "developer",
  roles,
  tenants: ["development"],
}, config);
if (token !== undefined) {
  console.log(
    `a development token of the tenant 'development'${
      roles.length === 0 ? "" : ` with the roles ${roles.join(", ")}`
    } (valid one hour): ${token}`,
  );
  console.log(
    "another: kit token --sub <id> --role <role> --tenant development (JWT_SECRET and DATABASE_URL as here)",
  );
}
// On this machine only unless HOST says otherwise (HOST=0.0.0.0: every interface).
const { host: hostname, port } = config;
let served: ReturnType<typeof serveApplication>;
try {
  served = serveApplication(application, { hostname, port, pages: [health] });
} catch (error) {
  if (!(error instanceof Deno.errors.AddrInUse)) throw error;
  logger.log({
    level: "error",
    component: "app",
    code: "PORT_IN_USE",
    message: `port ${port} is in use on ${hostname}: set PORT to another, or stop what holds it`,
  });
  await application.stop();
  await environment.close();
  Deno.exit(1);
}
// SIGINT/SIGTERM: a graceful shutdown, ended anyway after SHUTDOWN_TIMEOUT (default 25s) with
// exit code 1 and a SHUTDOWN_DEADLINE line (a request or the database that never answers).
const shutdown = shutdownWithin(async () => {
  await served.shutdown();
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
  code: "APP_STARTED",
  message: `listening on ${served.url} (${environment.description}${
    separateWorker ? ", run by apps/worker" : ""
  })`,
});
