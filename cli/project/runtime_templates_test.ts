import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readRegion } from "../files/marker_regions.ts";
import { initializedProject } from "../commands/test_project.ts";
import { jobStoreFile, migrateFile, redisJobStoreFile } from "./runtime_templates.ts";

Deno.test("jobStoreFile() opens the store of each queue", () => {
  assert.match(jobStoreFile("database"), /new PostgresJobStore\(sql\)/);
  assert.doesNotMatch(jobStoreFile("database"), /Redis/);
  const redis = jobStoreFile("redis");
  assert.match(redis, /const url = config\.redisUrl;/);
  assert.match(redis, /await openRedisJobs\(sql, url, config, logger\)/);
  // Its durability monitor is the process's readiness check of the job store.
  assert.match(redis, /check: jobs\.check,/);
  // Its durability monitor is the process's readiness check of the job store.
  assert.match(redis, /check: jobs\.check,/);
  assert.match(
    redis,
    /DATABASE_URL is not set: the queue redis enqueues through the database's outbox/,
  );
  assert.doesNotMatch(redis, /Deno\./);
  assert.doesNotMatch(jobStoreFile("memory"), /Postgres|Redis\b/);
});

Deno.test("redisJobStoreFile() enqueues through the outbox, watched by a durability monitor", () => {
  const file = redisJobStoreFile();
  assert.match(file, /new Redis\(url, \{ \.\.\.failFastRedisOptions\(\), lazyConnect: true \}\)/);
  assert.match(file, /requirement: config\.redisDurability/);
  assert.match(
    file,
    /new OutboxJobStore\(\n\s+new RedisJobStore\(scripting, \{ prefix, durability: monitor \}\),\n\s+sql,\n\s+\{ durability: monitor, \.\.\.logged \},\n\s+\)/,
  );
  assert.match(file, /check: \(\) => monitor\.probe\(\)/);
  assert.doesNotMatch(file, /Deno\./);
});

Deno.test("migrateFile() migrates the job store when the queue is the database, the jobs' outbox when redis", () => {
  assert.match(migrateFile("database"), /await migrateJobs\(sql\);/);
  assert.match(
    migrateFile("redis"),
    /await migrateKernel\(sql\);\n {2}await migrateJobOutbox\(sql\);\n {2}await migrateDatabase\(sql, options\);/,
  );
  assert.match(
    migrateFile("memory"),
    /await migrateKernel\(sql\);\n {2}await migrateDatabase\(sql, options\);/,
  );
  for (const queue of ["redis", "memory"] as const) {
    assert.doesNotMatch(migrateFile(queue), /migrateJobs/);
  }
});

Deno.test("kit init writes the platform, an empty migration list and the docs tasks", async () => {
  const dir = await initializedProject();
  const read = (path: string) => readFile(join(dir, path), "utf8");
  const list = await read("src/platform/database/migrations.ts");
  assert.deepEqual(readRegion(list, "migrations", "migrations.ts"), []);
  const compose = await read("src/platform/compose-application.ts");
  for (const region of ["providers", "memory-repositories", "postgres-repositories"]) {
    assert.deepEqual(readRegion(compose, region, "compose-application.ts"), [], region);
  }
  const tasks = JSON.parse(await read("deno.json")).tasks;
  assert.equal(tasks["docs:generate"], "deno run -A src/platform/docs/generate-docs.ts");
  assert.equal(tasks["docs:check"], "deno run -A src/platform/docs/generate-docs.ts --check");
  assert.match(await read("src/main.ts"), /serveApplication\(application/);
  assert.match(await read("src/platform/platform-test.module.ts"), /new InMemoryJobStore\(\)/);
});
