import type { KitConfig } from "./kit_config.ts";

/** `src/platform/database/database.ts`: the PostgreSQL client of the platform. */
export function databaseFile(): string {
  return `import { type Duration, type Token, token } from "@kit/kernel";
import { postgresClientOptions, type PostgresClientSettings } from "@kit/kernel/postgres";
import postgres from "postgres";
import project from "../../../kit.config.json" with { type: "json" };

/** The platform's PostgreSQL client (postgres.js); repositories write through the unit of work. */
export type Database = postgres.Sql;

/** The token of the platform's database client, for the adapters that inject it. */
export const Database: Token<Database> = token<Database>("Database");

/**
 * Opens the client of the database at \`url\` with kit's time-outs (\`postgresClientOptions\`: a
 * pool of 10, connect and acquire time-outs of 5 s, a statement time-out of 15 s), over which the
 * settings given win. An outage then answers 503 within seconds, and the pool connects again by
 * itself once the server is back.
 */
export function connectDatabase(url: string, settings: PostgresClientSettings = {}): Database {
  return postgres(url, {
    ...postgresClientOptions({
      ...settings,
      connection: { application_name: project.name, ...settings.connection },
    }),
    onnotice: () => {},
  });
}

/**
 * Opens a client for migrations: one connection, no statement time-out (a migration may take
 * long, and waits for another process's migration to finish).
 */
export function connectForMigrations(url: string): Database {
  return connectDatabase(url, { max: 1, statementTimeout: 0, acquireTimeout: "1h" });
}

const variables = {
  DATABASE_POOL_SIZE: "max",
  DATABASE_CONNECT_TIMEOUT: "connectTimeout",
  DATABASE_ACQUIRE_TIMEOUT: "acquireTimeout",
  DATABASE_STATEMENT_TIMEOUT: "statementTimeout",
  DATABASE_QUERY_TIMEOUT: "queryTimeout",
} as const;

/**
 * The database settings an operator gives in the environment: \`DATABASE_POOL_SIZE\` (a number),
 * \`DATABASE_CONNECT_TIMEOUT\`, \`DATABASE_ACQUIRE_TIMEOUT\`, \`DATABASE_STATEMENT_TIMEOUT\` and
 * \`DATABASE_QUERY_TIMEOUT\` (durations with a unit: \`500ms\`, \`5s\`, \`1m\`; \`0\` for none). Unset:
 * kit's defaults. A value that is not one throws, naming the variable.
 */
export function databaseSettingsFromEnv(
  env: Readonly<Record<string, unknown>>,
): PostgresClientSettings {
  const settings: Record<string, number | Duration> = {};
  for (const [variable, setting] of Object.entries(variables)) {
    const given = env[variable];
    const value = typeof given === "string" ? given.trim() : undefined;
    if (value === undefined || value === "") continue;
    if (setting === "max") {
      const size = Number(value);
      if (!Number.isInteger(size) || size < 1) {
        throw new Error(\`\${variable} must be a whole number of connections, got '\${value}'\`);
      }
      settings.max = size;
    } else if (value === "0") {
      settings[setting] = 0;
    } else if (/^\\d+(\\.\\d+)?(ms|s|m|h)$/.test(value)) {
      settings[setting] = value as Duration;
    } else {
      throw new Error(
        \`\${variable} must be a duration such as 500ms, 5s or 1m, got '\${value}'\`,
      );
    }
  }
  // Validated here, so that a wrong value stops the start with the variable's name.
  try {
    postgresClientOptions(settings);
  } catch (error) {
    throw new Error(\`The database settings of the environment are wrong: \${error}\`);
  }
  return settings;
}
`;
}

/** `src/platform/database/migrate.ts`: every migration the platform runs at start. */
export function migrateFile(queue: KitConfig["queue"]): string {
  const jobs = queue === "database";
  const outbox = queue === "redis";
  return `import { migrateKernel } from "@kit/kernel/postgres";
${
    jobs
      ? `import { migrateJobs } from "@kit/jobs/postgres";\n`
      : outbox
      ? `import { migrateJobOutbox } from "@kit/jobs/outbox";\n`
      : ""
  }import type { Database } from "./database.ts";
import { migrateDatabase, type MigrationOptions } from "./migrations.ts";

/**
 * Brings the database up to date: the kernel's outbox and processed events${
    jobs ? ", the job store" : outbox ? ", the jobs' outbox (relayed to Redis)" : ""
  }, then
 * the contexts' tables through the project's one ordered migration list. Idempotent; concurrent
 * runs (two processes starting together) are serialised by advisory locks.
 */
export async function migrate(sql: Database, options: MigrationOptions = {}): Promise<void> {
  await migrateKernel(sql);
${
    jobs
      ? "  await migrateJobs(sql);\n"
      : outbox
      ? "  await migrateJobOutbox(sql);\n"
      : ""
  }  await migrateDatabase(sql, options);
}
`;
}

const storeShape =
  `/** A job store, named for the start-up line, its readiness check if any, and how to release it. */
export interface OpenedJobStore {
  readonly store: JobStore;
  readonly name: string;
  /** Rejects while the store cannot keep what is enqueued (its server unreachable, not durable). */
  readonly check?: () => Promise<void>;
  close(): Promise<void>;
}

const inMemory = (): OpenedJobStore => ({
  store: new InMemoryJobStore(),
  name: "in memory",
  close: () => Promise.resolve(),
});
`;

/** `src/platform/jobs/job-store.ts`: the job store of the project's queue. */
export function jobStoreFile(queue: KitConfig["queue"]): string {
  if (queue === "database") {
    return `import { InMemoryJobStore, type JobStore } from "@kit/jobs";
import { PostgresJobStore } from "@kit/jobs/postgres";
import type { Logger } from "@kit/kernel";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";

${storeShape}
/**
 * The job store of the project's queue (database): on PostgreSQL, each job enqueued in the
 * transaction of its command, when the platform runs on a database; in memory otherwise.
 */
export function openJobStore(
  sql: Database | undefined,
  _config: PlatformConfig,
  _logger?: Logger,
): OpenedJobStore {
  if (sql === undefined) return inMemory();
  return { store: new PostgresJobStore(sql), name: "PostgreSQL", close: () => Promise.resolve() };
}
`;
  }
  if (queue === "redis") {
    return `import { InMemoryJobStore, type JobStore } from "@kit/jobs";
import type { Logger } from "@kit/kernel";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";
import { openRedisJobs } from "./redis-job-store.ts";

${storeShape}
/**
 * The job store of the project's queue (redis): on the Redis server at \`REDIS_URL\`, fed
 * through the database's outbox (see \`openRedisJobs\`), when the platform runs on a database;
 * in memory without either. Refuses to start with \`REDIS_URL\` alone: a job enqueued straight
 * to Redis could be lost after its command committed.
 */
export async function openJobStore(
  sql: Database | undefined,
  config: PlatformConfig,
  logger?: Logger,
): Promise<OpenedJobStore> {
  const url = config.redisUrl;
  if (sql === undefined && !url) return inMemory();
  if (!url) throw new Error("REDIS_URL is not set: the project's queue is redis");
  if (sql === undefined) {
    throw new Error(
      "DATABASE_URL is not set: the queue redis enqueues through the database's outbox, so that a job exists exactly when its command commits",
    );
  }
  const jobs = await openRedisJobs(sql, url, config, logger);
  return {
    store: jobs.store,
    name: "Redis (through the outbox)",
    check: jobs.check,
    close: () => jobs.close(),
  };
}
`;
  }
  return `import { InMemoryJobStore, type JobStore } from "@kit/jobs";
import type { Logger } from "@kit/kernel";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";

${storeShape}
/** The job store of the project's queue (memory): jobs are seen by this process only. */
export function openJobStore(
  _sql: Database | undefined,
  _config: PlatformConfig,
  _logger?: Logger,
): OpenedJobStore {
  return inMemory();
}
`;
}

/**
 * `src/platform/jobs/redis-job-store.ts` (queue redis): the job store on Redis, fed through the
 * database's outbox and watched by a durability monitor. The example keeps the same file (it
 * takes Redis beside its database queue).
 */
export function redisJobStoreFile(): string {
  return `import { OutboxJobStore } from "@kit/jobs/outbox";
import {
  failFastRedisOptions,
  RedisDurabilityMonitor,
  RedisJobStore,
  tcpScripting,
} from "@kit/jobs/redis";
import type { Logger } from "@kit/kernel";
import { Redis } from "ioredis";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";

/** The Redis job store of a process, its readiness check, and how to release it. */
export interface RedisJobs {
  /** Enqueues in the command's transaction (the outbox), relayed to Redis after commit. */
  readonly store: OutboxJobStore;
  /** The readiness check: rejects while Redis is unreachable, not durable or lost its data. */
  readonly check: () => Promise<void>;
  /** Stops the relay and the monitor (after the application stopped), closes the connection. */
  close(): Promise<void>;
}

/**
 * The job store on the Redis at \`url\`, fed through the database's outbox: a job is written in
 * the transaction of the command that enqueues it (\`kit_job_outbox\`, so that it exists exactly
 * when the command commits), relayed to Redis once committed, and marked relayed only once Redis
 * acknowledged it (a failed relay is retried every second; the relay runs in every process that
 * opens the store). A monitor looks at Redis at start and every second: while Redis is
 * unreachable, not durable (\`REDIS_DURABILITY\`: refuse, the default; warn; off) or lost its
 * data, \`check\` rejects (readiness red), enqueues made outside a command answer 503 with
 * \`Retry-After\`, and the relay waits; jobs enqueued by commands are kept in PostgreSQL meanwhile.
 * When Redis lost its data or restarted, the jobs relayed in the last 15 minutes are relayed again
 * (a job Redis still holds is left as it is). Its lines (Redis unreachable, not durable, the
 * relay failing and recovering) go to \`logger\` (default: the console's).
 */
export async function openRedisJobs(
  sql: Database,
  url: string,
  config: PlatformConfig,
  logger?: Logger,
): Promise<RedisJobs> {
  const redis = new Redis(url, { ...failFastRedisOptions(), lazyConnect: true });
  // Down at start: the monitor says so (readiness red) and the client keeps reconnecting.
  await redis.connect().catch(() => {});
  const logged = logger ? { logger } : {};
  const scripting = tcpScripting(redis, logged);
  const prefix = config.redisPrefix;
  const monitor = new RedisDurabilityMonitor(scripting, {
    prefix,
    requirement: config.redisDurability,
    ...logged,
  });
  const store = new OutboxJobStore(
    new RedisJobStore(scripting, { prefix, durability: monitor }),
    sql,
    { durability: monitor, ...logged },
  );
  await monitor.check();
  monitor.start();
  store.start();
  return {
    store,
    check: () => monitor.probe(),
    async close() {
      await store.stop();
      await monitor.stop();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
`;
}

/** `src/platform/auth/tokens.ts`: the bearer tokens the API accepts, signed for development. */
export function tokensFile(): string {
  return `import { SignJWT } from "jose";
import { type PlatformConfig, readConfig } from "../config.ts";

/** The claims of a token: the actor (\`sub\`), its roles and tenants, its scopes. */
export interface TokenClaims {
  readonly sub: string;
  readonly roles?: readonly string[];
  readonly tenants?: readonly string[];
  readonly scope?: string;
}

/**
 * Signs an HS256 token the API accepts, valid one hour from \`now\` (for development and tests;
 * a deployment verifies the tokens of its identity provider), with the issuer and audience of
 * \`authority\` (default: the project's, \`<project>-identity\` and \`<project>-api\`). Specs on a
 * test clock sign at its time (\`now\`: \`clock.now()\`), so that the API's clock finds it valid.
 */
export async function signToken(
  secret: Uint8Array,
  claims: TokenClaims,
  authority: Pick<PlatformConfig, "tokenIssuer" | "tokenAudience"> = readConfig({}),
  now: Date = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(authority.tokenIssuer)
    .setAudience(authority.tokenAudience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .sign(secret);
}
`;
}

/** `src/platform/http/serve.ts`: the application over HTTP on Deno (`Deno.serve`). */
export function serveFile(): string {
  return `import type { HttpApi } from "@kit/http";
import { platformFetch, type PlatformPage } from "./platform-fetch.ts";

/** A served application: its address, and how to stop serving. */
export interface Served {
  readonly url: string;
  shutdown(): Promise<void>;
}

/**
 * Serves the application's routes (its OpenAPI document and docs page among them, served by the
 * HTTP plugin), the platform's pages and \`/health\` with \`Deno.serve\` (\`port\` 0: any free
 * port), on this machine only unless \`hostname\` says otherwise (\`0.0.0.0\`: every interface);
 * \`pages\` are asked first (health endpoints with this process's readiness checks). Deno's HTTP
 * adapter: the Node entry point (\`src/main.node.ts\`) and the Worker (\`src/worker.ts\`) serve
 * \`platformFetch\` their own way. \`Deno.serve\` puts no deadline on reading a request's headers
 * (Deno 2.9.6): a client that never finishes them holds its connection for good. In production,
 * serve behind a reverse proxy that bounds it (nginx \`client_header_timeout 10s;\`, HAProxy
 * \`timeout http-request 10s\`), as kit's \`docs/operations/http-deadlines.md\` shows.
 */
export function serveApplication(
  application: { readonly http: HttpApi },
  options: { port?: number; hostname?: string; pages?: readonly PlatformPage[] } = {},
): Served {
  const server = Deno.serve(
    { hostname: options.hostname ?? "127.0.0.1", port: options.port ?? 8000, onListen: () => {} },
    platformFetch(application, options.pages),
  );
  return {
    url: \`http://\${
      server.addr.hostname === "0.0.0.0" ? "localhost" : server.addr.hostname
    }:\${server.addr.port}\`,
    shutdown: () => server.shutdown(),
  };
}
`;
}

/** `src/platform/http/api-docs.ts`: Swagger UI's files for the API docs page. */
export function apiDocsFile(): string {
  return `import script from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import stylesheet from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import type { SwaggerUiAssets } from "@kit/http";

/**
 * Swagger UI's script and stylesheet, from the npm package \`swagger-ui-dist\` (no CDN), imported
 * as text, so that the Node and Workers bundles carry them (about 1.6 MB) and need no files on
 * disk: the HTTP plugin serves them at \`/docs\` under its Content-Security-Policy
 * (\`composePlatform({ docs: swaggerUiAssets })\`), on Deno, Node and Workers alike.
 */
export function swaggerUiAssets(): Promise<SwaggerUiAssets> {
  return Promise.resolve({ script, stylesheet });
}
`;
}

/** `src/platform/platform-environment.ts`: what a process runs on, from the platform's config. */
export function environmentFile(): string {
  return `import { consoleLogger, type HealthCheck, type Logger } from "@kit/kernel";
import { observePostgresPool, postgresHealthCheck } from "@kit/kernel/postgres";
import type { JobStore } from "@kit/jobs";
import { type PlatformConfig, tokenSecret } from "./config.ts";
import { connectDatabase, connectForMigrations, type Database } from "./database/database.ts";
import { migrate } from "./database/migrate.ts";
import { openJobStore } from "./jobs/job-store.ts";

/** What a process of the platform runs on. */
export interface PlatformEnvironment {
  /** The database, the job store and the tokens accepted, for \`composePlatform\`. */
  readonly options: {
    readonly sql?: Database;
    readonly jobStore: JobStore;
    readonly jwtSecret: Uint8Array;
    readonly tokenIssuer: string;
    readonly tokenAudience: string;
  };
  /**
   * The readiness checks of what the process runs on, for \`/health/ready\`: the database (red
   * while out of reach, or while its pool is stalled: statements waiting and no answer for 10 s),
   * and the job store's (Redis unreachable, not durable or lost its data).
   */
  readonly readiness: Readonly<Record<string, HealthCheck>>;
  /** Where the data and the jobs are kept, for the start-up line. */
  readonly description: string;
  /** Closes the connections (after the application stopped). */
  close(): Promise<void>;
}

/**
 * Opens what \`config\` names (a long-running process, on Deno or Node): \`DATABASE_URL\` runs
 * every context on PostgreSQL, migrated here, its pool observed (\`kit.db.pool.connections\`);
 * without it, everything runs in memory (nothing is kept between runs). The job store follows the
 * project's queue. \`JWT_SECRET\` is the secret of the bearer tokens (see \`tokenSecret\`).
 */
export async function readEnvironment(
  config: PlatformConfig,
  logger: Logger = consoleLogger(),
): Promise<PlatformEnvironment> {
  const url = config.databaseUrl;
  if (url && !config.jwtSecret) {
    logger.log({
      level: "warn",
      component: "app",
      code: "JWT_SECRET_MISSING",
      message: "JWT_SECRET is not set: no bearer token is accepted",
    });
  }
  if (url) {
    // On a client of its own, without the statement time-out a migration may outlast.
    const migrations = connectForMigrations(url);
    try {
      await migrate(migrations, { reapply: config.migrationsReapply });
    } finally {
      await migrations.end({ timeout: 5 });
    }
  }
  const sql = url ? connectDatabase(url, config.database) : undefined;
  if (sql) observePostgresPool(sql);
  const jobs = await openJobStore(sql, config, logger);
  return {
    options: {
      ...(sql ? { sql } : {}),
      jobStore: jobs.store,
      jwtSecret: tokenSecret(config),
      tokenIssuer: config.tokenIssuer,
      tokenAudience: config.tokenAudience,
    },
    readiness: {
      ...(sql ? { database: postgresHealthCheck(sql, { logger }) } : {}),
      ...(jobs.check ? { jobs: jobs.check } : {}),
    },
    description: \`data \${sql ? "on PostgreSQL (DATABASE_URL)" : "in memory"}, jobs \${jobs.name}\`,
    async close() {
      await jobs.close();
      await sql?.end({ timeout: 5 });
    },
  };
}
`;
}

/**
 * `src/main.ts`: serves the application; runs the jobs in process unless `kit.config.json` says
 * `"worker": "separate"` (written by `kit generate worker`) and the job store is not in memory:
 * then only enqueues them.
 */
export function mainFile(): string {
  return `/**
 * Serves the application (\`deno task dev\`) on \`PORT\` (default 8000): its routes, the health
 * endpoints (\`/health/live\`, \`/health/ready\`; \`/health\` is liveness), the OpenAPI document at
 * \`/openapi.json\` and the API docs page at \`/docs\`. With \`DATABASE_URL\` every context runs on
 * PostgreSQL, migrated at start; without it, in memory. The outbox is relayed to the event
 * handlers. The background and scheduled jobs run in this process, unless \`kit.config.json\` says
 * \`"worker": "separate"\` (\`kit generate worker\` writes it) and the job store is shared (not in
 * memory): then \`apps/worker\` runs them and this process only enqueues.
 *
 * Every wait has a deadline: the database's (\`DATABASE_*_TIMEOUT\`, see \`config.ts\`), readiness
 * red while the database is out of reach or its pool stalled, or while the relay makes no
 * progress for \`RELAY_STALLED_AFTER\` (default 30s), and SIGTERM ends the process within
 * \`SHUTDOWN_TIMEOUT\` (default 25s). Logs: one line per problem (\`LOG_FORMAT\`, \`LOG_LEVEL\`).
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
const token = environment.options.sql
  ? undefined
  : await signToken(environment.options.jwtSecret, {
    sub: "developer",
    roles,
    tenants: ["development"],
  }, config);
if (token !== undefined) {
  console.log(
    \`a development token of the tenant 'development'\${
      roles.length === 0 ? "" : \` with the roles \${roles.join(", ")}\`
    } (valid one hour): \${token}\`,
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
    message: \`port \${port} is in use on \${hostname}: set PORT to another, or stop what holds it\`,
  });
  await application.stop();
  await environment.close();
  Deno.exit(1);
}
logger.log({
  level: "info",
  component: "app",
  code: "APP_STARTED",
  message: \`listening on \${served.url} (\${environment.description}\${
    separateWorker ? ", run by apps/worker" : ""
  })\`,
});
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
`;
}
