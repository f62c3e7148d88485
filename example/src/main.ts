/**
 * The scheduling API: `deno task dev`. On a fresh machine it runs on an embedded PostgreSQL
 * (PGlite, files under `.kit/dev-db`); `DATABASE_URL` switches to a real server and `REDIS_URL` the
 * job store to Redis. The worker runs in process (`JOBS=off` to only enqueue) and the outbox is
 * relayed to the event handlers. Prints the address, a sample token and the API docs address.
 */
import type { JobStore } from "@kit/jobs";
import { RedisJobStore, tcpScripting, upstashScripting } from "@kit/jobs/redis";
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { signToken } from "./platform/auth/tokens.ts";
import { composePlatform } from "./platform/compose-application.ts";
import { connectDatabase } from "./platform/database/database.ts";
import { type DevDatabase, startDevDatabase } from "./platform/database/dev-database.ts";
import { migrate } from "./platform/database/migrate.ts";
import { seedDevData } from "./platform/database/seed.ts";
import { serveApplication } from "./platform/http/serve.ts";

let dev: DevDatabase | undefined;
let url = Deno.env.get("DATABASE_URL");
if (!url) {
  const dataDir = Deno.env.get("KIT_DEV_DB") ?? new URL("../.kit/dev-db", import.meta.url).pathname;
  console.log(`no DATABASE_URL: starting the embedded database in ${dataDir} ...`);
  dev = await startDevDatabase(dataDir);
  url = dev.url;
}
const sql = connectDatabase(url, dev ? { max: 1 } : {});
await migrate(sql);

function jobStoreFromEnv(): JobStore | undefined {
  const redisUrl = Deno.env.get("REDIS_URL");
  if (!redisUrl) return undefined;
  if (redisUrl.startsWith("https://")) {
    const token = Deno.env.get("UPSTASH_REDIS_REST_TOKEN");
    if (!token) throw new Error("REDIS_URL is an Upstash REST URL: set UPSTASH_REDIS_REST_TOKEN");
    const redis = new UpstashRedis({ url: redisUrl, token, automaticDeserialization: false });
    return new RedisJobStore(upstashScripting(redis));
  }
  return new RedisJobStore(tcpScripting(new IORedis(redisUrl)));
}

const secret = new TextEncoder().encode(
  Deno.env.get("JWT_SECRET") ?? "dev-only-secret-of-the-scheduling-example",
);
const jobStore = jobStoreFromEnv();
const application = composePlatform({
  sql,
  jwtSecret: secret,
  startJobs: Deno.env.get("JOBS") !== "off",
  startEvents: true,
  listen: dev === undefined,
  ...(jobStore ? { jobStore } : {}),
});
await application.start();
await seedDevData(application);
const served = await serveApplication(application, { port: Number(Deno.env.get("PORT") ?? 8000) });
const token = await signToken(secret, {
  sub: "dr-who",
  roles: ["practitioner"],
  tenants: ["practice-1"],
});
console.log(`scheduling API on ${served.url}
  API docs:  ${served.url}/docs  (OpenAPI document: ${served.url}/openapi.json)
  database:  ${dev ? "embedded (PGlite)" : "DATABASE_URL"}; jobs: ${
  jobStore ? "Redis" : "PostgreSQL"
}
  sample token (practitioner dr-who of practice-1, valid 1 hour; send x-tenant-id: practice-1):
  ${token}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await served.shutdown();
    await application.stop();
    await sql.end({ timeout: 5 });
    await dev?.stop();
    Deno.exit(0);
  });
}
