import type { KitConfig } from "./kit_config.ts";
import { bundles, type Runtime } from "./runtime_entry_templates.ts";

/** `README.md` of a generated project: how to run and deploy it on each of its runtimes. */
export function projectReadme(config: KitConfig, selected: readonly Runtime[]): string {
  const sections = [
    `# ${config.name}

Made with \`kit init\`. The platform reads its configuration through \`src/platform/config.ts\`
(\`readConfig\`), from the environment each entry point passes; no file outside an entry point
uses a runtime's API. Settings: \`DATABASE_URL\` (PostgreSQL; unset: everything in memory),
\`DATABASE_POOL_SIZE\` and \`DATABASE_{CONNECT,ACQUIRE,STATEMENT}_TIMEOUT\` (its client),
\`JWT_SECRET\`, \`JWT_ISSUER\`, \`JWT_AUDIENCE\`, \`REDIS_URL\`, \`REDIS_DURABILITY\` and
\`REDIS_PREFIX\` (queue redis), \`UPSTASH_REDIS_REST_URL\` and \`UPSTASH_REDIS_REST_TOKEN\`
(Workers), \`HOST\`, \`PORT\`, \`KIT_MIGRATIONS_REAPPLY\`.${
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

- **Database**: postgres.js, its Workers build (\`DENO_CONDITIONS=workerd\` in \`build:workers\`
  picks it), over TCP through \`cloudflare:sockets\`: the same driver, SQL, repositories and
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
