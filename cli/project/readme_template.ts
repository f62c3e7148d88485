import type { KitConfig } from "./kit_config.ts";
import { bundles, type Runtime } from "./runtime_entry_templates.ts";

/** `README.md` of a generated project: how to run and deploy it on each of its runtimes. */
export function projectReadme(config: KitConfig, selected: readonly Runtime[]): string {
  const sections = [
    `# ${config.name}

Made with \`kit init\`. The platform reads its configuration through \`src/platform/config.ts\`
(\`readConfig\`), from the environment each entry point passes; no file outside an entry point
uses a runtime's API. Settings: \`DATABASE_URL\` (PostgreSQL; unset: everything in memory),
\`DATABASE_POOL_SIZE\` and \`DATABASE_{CONNECT,ACQUIRE,STATEMENT,QUERY}_TIMEOUT\` (its client),
\`JWT_SECRET\`, \`JWT_ISSUER\`, \`JWT_AUDIENCE\`, \`REDIS_URL\`, \`REDIS_DURABILITY\` and
\`REDIS_PREFIX\` (queue redis), \`UPSTASH_REDIS_REST_URL\` and \`UPSTASH_REDIS_REST_TOKEN\`
(Workers), \`HOST\`, \`PORT\`, \`KIT_MIGRATIONS_REAPPLY\`, \`LOG_FORMAT\`, \`LOG_LEVEL\`,
\`SHUTDOWN_TIMEOUT\`, \`RELAY_STALLED_AFTER\` (see Production below).${
      config.queue === "redis"
        ? `

Jobs (queue redis) are written in the transaction of the command that enqueues them
(\`kit_job_outbox\`) and relayed to Redis once it committed, so none is lost whatever Redis does; a
monitor refuses a Redis without persistence and repairs one that lost its data
(\`src/platform/jobs/redis-job-store.ts\`; kit's \`docs/operations/redis-jobs.md\`).`
        : ""
    }

A token for the API: \`kit token --sub <id> --role <role> --tenant <tenant>\` (with the
\`JWT_SECRET\` of the server).`,
    productionSection(config),
  ];
  if (selected.includes("deno")) {
    sections.push(`## Deno

\`\`\`sh
deno task dev                                  # src/main.ts, restarted on change
DATABASE_URL=postgres://... JWT_SECRET=... deno run -A src/main.ts
\`\`\`

Deploy \`src/main.ts\` as it is (\`deno run -A src/main.ts\`, or \`deno compile\`). It serves the API
docs page at \`/docs\` too. \`Deno.serve\` puts no deadline on reading a request's headers: serve
behind a reverse proxy that does (nginx \`client_header_timeout 10s;\`), and keep \`HOST\` on
loopback or a private network.`);
  }
  if (selected.includes("node")) {
    sections.push(`## Node

\`\`\`sh
deno task build:node                           # ${bundles.node}
DATABASE_URL=postgres://... JWT_SECRET=... PORT=8000 node ${bundles.node}
\`\`\`

\`src/main.node.ts\` reads \`process.env\` and serves the platform with \`@hono/node-server\` (Node
20 or later): the same routes, \`/openapi.json\` and docs page at \`/docs\`, migrations at start,
jobs and events as on Deno. Deploy the one file \`${bundles.node}\`; it needs no \`node_modules\`
(Swagger UI's files are in it). \`kit generate worker\` writes \`apps/worker/main.node.ts\` too: the
jobs in a Node process of their own (its doc comment says how to bundle it). A connection that has
not sent a request's headers within \`HTTP_HEADERS_TIMEOUT_MS\` (default 10000) is answered 408 and
closed.`);
  }
  if (selected.includes("workers")) {
    sections.push(`## Cloudflare Workers

\`\`\`sh
deno task build:workers                        # ${bundles.workers}
npx wrangler secret put JWT_SECRET
npx wrangler secret put UPSTASH_REDIS_REST_TOKEN
npx wrangler deploy                            # wrangler.toml
\`\`\`

\`src/worker.ts\` reads the Worker's bindings (\`env\`) and serves the same routes,
\`/openapi.json\` and docs page at \`/docs\` (Swagger UI's files are in the bundle: about 1.6 MB
of it, 0.45 MB of its compressed size, which Cloudflare limits). What differs from Deno and Node:

- **Database**: kit's postgres.js, its Workers build (\`@kit/postgres/cf\`: \`build:workers\`
  maps \`postgres\` to it in \`dist/worker.imports.json\`), over TCP through \`cloudflare:sockets\`: the same driver, SQL, repositories and
  transactions as on Deno and Node, so nothing is written twice. Give it \`DATABASE_URL\`, or a
  Hyperdrive binding named \`HYPERDRIVE\` (Cloudflare's pooler in front of PostgreSQL, which keeps
  connections warm: the Worker opens one connection per request, as a Worker may not share a
  socket between requests). The Worker never migrates: run the Deno or Node process (or
  \`migrate\`) on a release first. Without either, everything runs in memory in one isolate
  (development only).
- **Jobs**: enqueued to Upstash Redis over HTTP (\`@upstash/redis\`, \`UPSTASH_REDIS_REST_URL\` and
  \`UPSTASH_REDIS_REST_TOKEN\`); a Worker runs no loop, so the jobs run in a Deno or Node process
  (\`kit generate worker\`, or the API) on the same Redis (\`REDIS_URL\`: Upstash's TCP address,
  and the same \`REDIS_PREFIX\` if one is set; the project's queue must be redis${
      config.queue === "redis" ? ", as it is" : ": `kit.config.json` says " + config.queue
    }). Events are written to the outbox and relayed by that process too.`);
  }
  return sections.join("\n\n") + "\n";
}

/**
 * The README's section on running in production: the health endpoints, the deadlines and their
 * settings, the logs and the metrics, each pointing to kit's operations page on it.
 */
function productionSection(config: KitConfig): string {
  return `## Production

Kit's operator pages (\`docs/operations/\` in kit's repository) describe each of these in full.

- **Health** (\`src/platform/http/health.ts\`, served by \`src/main.ts\` and \`src/main.node.ts\`):
  \`GET /health/live\` (and \`/health\`) answers 200 while the process answers at all: the liveness
  probe, which never looks at the database. \`GET /health/ready\` answers 200 when every check
  passes, else 503 with \`Retry-After\` and the failing check named (one \`NOT_READY\` line per
  check in the log): the database (out of reach, no connection free within 2 s, or its pool
  stalled: statements waiting and no answer from the server for 10 s), the outbox relay (no
  progress for \`RELAY_STALLED_AFTER\`, default \`30s\`, with deliveries pending)${
    config.queue === "redis"
      ? ", and the Redis job store (unreachable, not durable or lost its data)"
      : ""
  }. Point the orchestrator's readiness probe at it. \`apps/worker\` (\`kit generate worker\`)
  answers both on \`HEALTH_PORT\` when set.
- **Deadlines**: every wait has one. The database client's (\`DATABASE_CONNECT_TIMEOUT\` and
  \`DATABASE_ACQUIRE_TIMEOUT\`, default \`5s\`; \`DATABASE_STATEMENT_TIMEOUT\`, \`15s\`;
  \`DATABASE_QUERY_TIMEOUT\`, the client-side deadline of a statement's answer, \`20s\`): a request
  the database cannot serve in time is answered 503 with \`Retry-After\`, and the pool connects
  again by itself (kit's \`docs/operations/postgres-deadlines.md\`). SIGTERM stops serving, lets
  requests in flight end and closes the connections, and ends the process anyway after
  \`SHUTDOWN_TIMEOUT\` (default \`25s\`, under the 30 s an orchestrator waits) with exit code 1
  and a \`SHUTDOWN_DEADLINE\` line. A request's headers: see each runtime below
  (\`docs/operations/http-deadlines.md\`).
- **Logs**: one line per problem, with its time, level, component, a stable code and a count;
  repeats within 10 s are summarised in one line; stack traces only for bugs. \`LOG_FORMAT\`:
  \`text\` (default) or \`json\` (one object a line, for a log shipper); \`LOG_LEVEL\`: \`debug\`,
  \`info\` (default), \`warn\` or \`error\` (\`docs/operations/logs.md\`).
- **Metrics**: through \`@opentelemetry/api\` (install an SDK with a Prometheus or OTLP exporter to
  export them): the pool (\`kit.db.pool.connections\`), the outbox's backlog and lag, jobs by
  state, live workers, HTTP requests by route and status, and the alerts to set on them
  (\`docs/operations/metrics.md\`, \`docs/operations/workers.md\`${
    config.queue === "redis" ? ", \`docs/operations/redis-jobs.md\`" : ""
  }).`;
}
