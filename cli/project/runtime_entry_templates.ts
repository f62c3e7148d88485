/**
 * The entry points of a generated project beyond Deno's `src/main.ts`: Node's (`src/main.node.ts`,
 * a Node HTTP server through `@hono/node-server`) and Cloudflare Workers' (`src/worker.ts` with
 * its `wrangler.toml` and the Upstash job store), each reading the platform's config from its
 * runtime's environment and serving `platformFetch`.
 *
 * @module
 */

/** The runtimes `kit init --runtime` lays out an entry point for. */
export const runtimes = ["deno", "node", "workers"] as const;

/** A runtime `kit init --runtime` knows. */
export type Runtime = typeof runtimes[number];

/** The bundle each build task writes. */
export const bundles = {
  node: "dist/main.node.mjs",
  workers: "dist/worker.mjs",
} as const;

/** The import map the Workers bundle is built with (written by `build:workers`). */
const workersImportMap = "dist/worker.imports.json";

/**
 * A script writing {@link workersImportMap}: the project's imports, `postgres` mapped to the
 * Workers build of kit's patched driver (`@kit/postgres/cf`, over `cloudflare:sockets`). `deno
 * bundle --import-map` replaces the imports of `deno.json` rather than adding to them, so the map
 * is written from `deno.json` at each build, each `npm:`/`jsr:` package with its subpaths too (as
 * `deno.json` gives them implicitly) and relative targets rebased on `dist/`.
 */
const writeWorkersImportMap = [
  `const { imports } = JSON.parse(Deno.readTextFileSync("deno.json")), map = {};`,
  `for (const [name, to] of Object.entries(imports)) {`,
  `map[name] = to.startsWith(".") ? "../" + to : to;`,
  `if (/^(npm|jsr):/.test(to) && !name.endsWith("/")) map[name + "/"] = to.replace(/^(npm|jsr):\\/?/, "$1:/") + "/";`,
  `}`,
  `map.postgres += "/cf";`,
  `Deno.mkdirSync("dist", { recursive: true });`,
  `Deno.writeTextFileSync("${workersImportMap}", JSON.stringify({ imports: map }, null, 2));`,
].join(" ");

/**
 * The build tasks of a generated project, per runtime: `deno bundle` of the entry point, leaving
 * out Node's built-ins on Workers (given by `nodejs_compat`) and `cloudflare:sockets`. The Workers
 * bundle maps `postgres` to the Workers build of kit's patched driver (`@kit/postgres/cf`, through
 * an import map written from `deno.json`), and `DENO_CONDITIONS=workerd` picks the Workers builds
 * of the npm packages that have one (`@upstash/redis`).
 */
export function buildTasks(selected: readonly Runtime[]): Record<string, string> {
  return {
    ...(selected.includes("node")
      ? {
        "build:node": `deno bundle --platform node -o ${bundles.node} src/main.node.ts`,
      }
      : {}),
    ...(selected.includes("workers")
      ? {
        "build:workers":
          `deno eval '${writeWorkersImportMap}' && DENO_CONDITIONS=workerd deno bundle --platform browser --import-map ${workersImportMap} --external "node:*" --external cloudflare:sockets -o ${bundles.workers} src/worker.ts`,
      }
      : {}),
  };
}

/** `src/main.node.ts`: the application served by Node's HTTP server. */
export function nodeMainFile(): string {
  return `/**
 * Serves the application on Node 20 or later (\`deno task build:node\`, then
 * \`node ${bundles.node}\`) on \`HOST\`:\`PORT\` (default 127.0.0.1:8000): its routes, the health
 * endpoints (\`/health/live\`, \`/health/ready\`; \`/health\` is liveness), the OpenAPI document at
 * \`/openapi.json\` and the API docs page at \`/docs\`. The same platform as \`src/main.ts\`: with
 * \`DATABASE_URL\` every context runs on PostgreSQL, migrated at start; without it, in memory.
 * Jobs run in this process unless \`kit.config.json\` says \`"worker": "separate"\` and the job
 * store is shared. A request's headers must arrive within \`HTTP_HEADERS_TIMEOUT_MS\` (default
 * 10000; see docs/operations/http-deadlines.md in kit); readiness, \`SHUTDOWN_TIMEOUT\`,
 * \`RELAY_STALLED_AFTER\`, \`LOG_FORMAT\` and \`LOG_LEVEL\` as in \`src/main.ts\`.
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
  console.error(\`HTTP_HEADERS_TIMEOUT_MS must be a number of milliseconds > 0, got '\${process.env.HTTP_HEADERS_TIMEOUT_MS}'\`);
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
      message: \`listening on http://\${config.host}:\${address.port} (\${environment.description}\${
        separateWorker ? ", run by apps/worker" : ""
      })\`,
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
    message: \`port \${config.port} is in use on \${config.host}: set PORT to another, or stop what holds it\`,
  });
  await application.stop();
  await environment.close();
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, shutdown);
`;
}

/** `src/platform/jobs/upstash-job-store.ts`: the job store of the Workers entry point. */
export function upstashJobStoreFile(): string {
  return `import { InMemoryJobStore, type JobStore } from "@kit/jobs";
import { RedisJobStore, upstashScripting } from "@kit/jobs/redis";
import { Redis } from "@upstash/redis";
import type { PlatformConfig } from "../config.ts";

/**
 * The job store of a Worker, which only enqueues (a Worker runs no loop; \`apps/worker\` or the
 * API on Deno or Node runs the jobs): Upstash Redis over HTTP (\`UPSTASH_REDIS_REST_URL\`,
 * \`UPSTASH_REDIS_REST_TOKEN\`), the Redis the Deno or Node process reads through \`REDIS_URL\`
 * (queue redis). Without them, in memory: jobs enqueued there are never run.
 */
export function openUpstashJobStore(config: PlatformConfig): { store: JobStore; name: string } {
  if (config.upstash === undefined) return { store: new InMemoryJobStore(), name: "in memory" };
  const redis = new Redis({ ...config.upstash, automaticDeserialization: false });
  return {
    store: new RedisJobStore(upstashScripting(redis), {
      requireDurability: config.redisDurability,
      prefix: config.redisPrefix,
    }),
    name: "Upstash Redis",
  };
}
`;
}

/** `src/worker.ts`: the application as a Cloudflare Workers module worker. */
export function workerFile(): string {
  return `/**
 * The application on Cloudflare Workers (\`deno task build:workers\`, then \`wrangler deploy\`;
 * see \`wrangler.toml\`): its routes, \`/health\`, \`/openapi.json\` and the API docs page at
 * \`/docs\`. Its configuration is the Worker's bindings (\`wrangler secret put JWT_SECRET\`).
 *
 * With \`DATABASE_URL\` (or a Hyperdrive binding named \`HYPERDRIVE\`, in production), every context runs on
 * PostgreSQL through postgres.js over \`cloudflare:sockets\`: one connection per request, since a
 * Worker may not share a socket between requests; the database is migrated by the Deno or Node
 * process, never here. Jobs are enqueued to Upstash Redis over HTTP and run by a Deno or Node
 * process; the outbox is relayed there too. Without \`DATABASE_URL\`, everything is in memory in
 * this isolate (development only: nothing is shared between isolates nor kept).
 */
import { composePlatform } from "./platform/compose-application.ts";
import { readConfig, tokenSecret } from "./platform/config.ts";
import { connectDatabase } from "./platform/database/database.ts";
import { swaggerUiAssets } from "./platform/http/api-docs.ts";
import { platformFetch } from "./platform/http/platform-fetch.ts";
import { openUpstashJobStore } from "./platform/jobs/upstash-job-store.ts";

/** What a Worker is given besides its bindings: a way to finish work after the answer. */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

let inMemory: ((request: Request) => Promise<Response>) | undefined;

export default {
  async fetch(
    request: Request,
    env: Record<string, unknown>,
    context: ExecutionContext,
  ): Promise<Response> {
    // A Hyperdrive binding named HYPERDRIVE, when there is one, is the database.
    const hyperdrive = env["HYPERDRIVE"] as { connectionString?: string } | undefined;
    const config = readConfig(
      hyperdrive?.connectionString ? { ...env, DATABASE_URL: hyperdrive.connectionString } : env,
    );
    const options = {
      jwtSecret: tokenSecret(config),
      tokenIssuer: config.tokenIssuer,
      tokenAudience: config.tokenAudience,
      jobStore: openUpstashJobStore(config).store,
      docs: swaggerUiAssets,
    };
    if (config.databaseUrl === undefined) {
      inMemory ??= platformFetch(composePlatform(options));
      return await inMemory(request);
    }
    const sql = connectDatabase(config.databaseUrl, { max: 1 });
    try {
      return await platformFetch(composePlatform({ ...options, sql }))(request);
    } finally {
      context.waitUntil(sql.end({ timeout: 5 }));
    }
  },
};
`;
}

/** `wrangler.toml`: the Worker's deployment. */
export function wranglerToml(name: string): string {
  return `# The Worker of ${name}: \`deno task build:workers\` writes ${bundles.workers}, \`wrangler deploy\` ships it.
# Secrets: wrangler secret put JWT_SECRET (and UPSTASH_REDIS_REST_TOKEN).
name = "${name}"
main = "${bundles.workers}"
compatibility_date = "2025-09-01"
# node:async_hooks (the kernel's work scope), node:buffer and node:stream (postgres.js).
compatibility_flags = ["nodejs_compat"]

[vars]
# UPSTASH_REDIS_REST_URL = "https://<your-database>.upstash.io"

# PostgreSQL through Hyperdrive (src/worker.ts takes its connection string as DATABASE_URL):
# [[hyperdrive]]
# binding = "HYPERDRIVE"
# id = "<your Hyperdrive configuration id>"
`;
}
