/**
 * The scheduling API: `deno task dev`. On a fresh machine it runs on an embedded PostgreSQL
 * (PGlite, files under `.kit/dev-db`); `DATABASE_URL` switches to a real server and `REDIS_URL` the
 * job store to Redis (`UPSTASH_REDIS_REST_URL` and `UPSTASH_REDIS_REST_TOKEN`: to Upstash). The
 * worker runs in process (`JOBS=off` to only enqueue) and the outbox is relayed to the event
 * handlers. Prints the address, sample tokens (an operator's for the jobs
 * dashboard at `/ops/jobs`) and the API docs address.
 *
 * The database client has kit's time-outs (`DATABASE_POOL_SIZE`, `DATABASE_CONNECT_TIMEOUT`,
 * `DATABASE_ACQUIRE_TIMEOUT`, `DATABASE_STATEMENT_TIMEOUT` change them): while PostgreSQL is out of
 * reach requests answer 503 with `Retry-After` within seconds, `/health/ready` answers 503, and
 * everything works again once it is back, without a restart.
 */
import { type Duration, shutdownWithin } from "@kit/kernel";
import { observePostgresPool, postgresHealthCheck } from "@kit/kernel/postgres";
import { signToken } from "./platform/auth/tokens.ts";
import { composePlatform } from "./platform/compose-application.ts";
import { readConfig, tokenSecret } from "./platform/config.ts";
import { connectDatabase, connectForMigrations } from "./platform/database/database.ts";
import { type DevDatabase, startDevDatabase } from "./platform/database/dev-database.ts";
import { migrate } from "./platform/database/migrate.ts";
import { nextWeekdayAtTen, seedDevData, seededPractices } from "./platform/database/seed.ts";
import { swaggerUiAssets } from "./platform/http/api-docs.ts";
import { healthEndpoints } from "./platform/http/health.ts";
import { configuredRedisJobs } from "./platform/jobs/configured-job-store.ts";
import { serveApplication } from "./platform/http/serve.ts";
import { platformLogger, readinessFailureLine } from "./platform/logging/platform-logger.ts";

const config = readConfig(Deno.env.toObject());
// One line per problem, repeats summarised; LOG_FORMAT=json for a log shipper, LOG_LEVEL.
const logger = platformLogger(config);
let dev: DevDatabase | undefined;
let url = config.databaseUrl;
if (!url) {
  const dataDir = Deno.env.get("KIT_DEV_DB") ?? new URL("../.kit/dev-db", import.meta.url).pathname;
  logger.log({
    level: "info",
    component: "app",
    code: "DEV_DATABASE_STARTING",
    message: `no DATABASE_URL: starting the embedded database in ${dataDir} ...`,
  });
  dev = await startDevDatabase(dataDir);
  url = dev.url;
}
const settings = config.database;
const migrations = connectForMigrations(url);
await migrate(migrations);
await migrations.end({ timeout: 5 });
const sql = connectDatabase(url, dev ? { ...settings, max: 1 } : settings);

// JWT_SECRET; unset, the development secret `kit token` signs with when on the embedded database,
// and with DATABASE_URL a random one (only the tokens printed below pass).
const secret = tokenSecret(config);
// Upstash or REDIS_URL (through the outbox, its durability watched), else the database's queue.
const jobs = await configuredRedisJobs(sql, config, logger);
const application = composePlatform({
  sql,
  jwtSecret: secret,
  docs: swaggerUiAssets,
  tokenIssuer: config.tokenIssuer,
  tokenAudience: config.tokenAudience,
  startJobs: Deno.env.get("JOBS") !== "off",
  startEvents: true,
  // OUTBOX_LEASE: how long another process's relay waits for the deliveries this one claimed.
  outboxLeaseMs: config.outboxLeaseMs,
  listen: dev === undefined,
  logger,
  worker: { host: Deno.hostname(), pid: Deno.pid },
  ...(jobs ? { jobStore: jobs.store } : {}),
});
await application.start();
await seedDevData(application);
// On this machine only unless HOST says otherwise (HOST=0.0.0.0: every interface). The booking
// page is one of the platform's pages (platform-fetch.ts); the health endpoints check this
// process's database and job store.
const health = healthEndpoints({
  readiness: {
    database: postgresHealthCheck(sql, { logger }),
    // Red while the relay makes no progress with deliveries pending (RELAY_STALLED).
    outbox: application.events.relay.stallCheck({
      stalledAfter: (Deno.env.get("RELAY_STALLED_AFTER") ?? "30s") as Duration,
      logger,
    }),
    ...(jobs ? { jobs: jobs.check } : {}),
  },
  onFailure: readinessFailureLine(logger),
});
observePostgresPool(sql); // kit.db.pool.connections
const served = serveApplication(application, {
  hostname: config.host,
  port: config.port,
  pages: [health],
});
const tokenOf = (sub: string, role: string, tenant: string) =>
  signToken(secret, { sub, roles: [role], tenants: [tenant] }, config);
const [first, second] = seededPractices;
const tokens = {
  practitioner: await tokenOf(first!.practitioner, "practitioner", first!.tenant),
  patient: await tokenOf("pat-1", "patient", first!.tenant),
  otherPractice: await tokenOf(second!.practitioner, "practitioner", second!.tenant),
  operator: await tokenOf("ops-1", "operator", first!.tenant),
};
const booking = JSON.stringify({
  calendarId: first!.calendarId,
  appointmentTypeId: "checkup",
  startsAt: nextWeekdayAtTen(new Date()).toISOString(),
});
// SIGINT/SIGTERM: a graceful shutdown, ended anyway after SHUTDOWN_TIMEOUT (default 25s) with
// exit code 1 and a SHUTDOWN_DEADLINE line (a request or the database that never answers).
const shutdown = shutdownWithin(async () => {
  // The jobs dashboard's event streams end first: a graceful shutdown waits for every answer.
  application.jobsDashboard.close();
  await served.shutdown();
  await application.stop();
  await jobs?.close();
  await sql.end({ timeout: 5 });
  await dev?.stop();
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
  message: `scheduling API on ${served.url}`,
  details: { database: dev ? "embedded" : "DATABASE_URL", jobs: jobs ? "Redis" : "PostgreSQL" },
});
// The developer's banner (addresses, sample tokens): never in a shipped (JSON) log.
if (config.logFormat === "text") {
  console.log(`  API docs:  ${served.url}/docs  (OpenAPI document: ${served.url}/openapi.json)
  booking page: ${served.url}/book#token=${tokens.patient}
  jobs dashboard: ${served.url}/ops/jobs  (paste the operator's token below in its token field)
  health:    ${served.url}/health/live, ${served.url}/health/ready
  database:  ${dev ? "embedded (PGlite)" : "DATABASE_URL"}; jobs: ${jobs?.name ?? "PostgreSQL"}
  seeded:    ${
    seededPractices.map((p) => `${p.tenant}: calendar ${p.calendarId} of ${p.practitioner}`).join(
      "; ",
    )
  }; each offers checkup (30 min), open Monday-Friday 09:00-17:00 UTC
  tokens (valid 1 hour; each caller belongs to one practice, so no x-tenant-id is needed):
    practitioner ${first!.practitioner} of ${first!.tenant}: ${tokens.practitioner}
    patient pat-1 of ${first!.tenant}: ${tokens.patient}
    practitioner ${second!.practitioner} of ${second!.tenant}: ${tokens.otherPractice}
    operator ops-1 of ${first!.tenant} (jobs dashboard): ${tokens.operator}
  book a check-up as the patient:
    curl -X POST ${served.url}/appointments/ -H 'authorization: Bearer ${tokens.patient}' -H 'content-type: application/json' -d '${booking}'`);
}
