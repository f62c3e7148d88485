/**
 * The application on Cloudflare Workers (`deno task build:workers`, then `wrangler deploy`;
 * see `wrangler.toml`): its routes, `/health`, `/openapi.json` and the API docs page at
 * `/docs`. Its configuration is the Worker's bindings (`wrangler secret put JWT_SECRET`).
 *
 * With `DATABASE_URL` (or a Hyperdrive binding named `HYPERDRIVE`, in production), every context runs on
 * PostgreSQL through postgres.js over `cloudflare:sockets`: one connection per request, since a
 * Worker may not share a socket between requests; the database is migrated by the Deno or Node
 * process, never here. Jobs are enqueued to Upstash Redis over HTTP and run by a Deno or Node
 * process; the outbox is relayed there too. Without `DATABASE_URL`, everything is in memory in
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
