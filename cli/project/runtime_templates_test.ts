import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readRegion } from "../files/marker_regions.ts";
import { initializedProject } from "../commands/test_project.ts";
import { jobStoreFile, migrateFile } from "./runtime_templates.ts";

Deno.test("jobStoreFile() opens the store of each queue", () => {
  assert.match(jobStoreFile("database"), /new PostgresJobStore\(sql\)/);
  assert.doesNotMatch(jobStoreFile("database"), /Redis/);
  const redis = jobStoreFile("redis");
  assert.match(redis, /new Redis\(url, failFastRedisOptions\(\)\)/);
  assert.match(
    redis,
    /new RedisJobStore\(tcpScripting\(redis\), \{\n\s+requireDurability,\n\s+prefix: config\.redisPrefix,\n\s+\}\)/,
  );
  assert.match(redis, /const requireDurability = config\.redisDurability;/);
  assert.match(redis, /const url = config\.redisUrl;/);
  assert.doesNotMatch(redis, /Deno\./);
  assert.doesNotMatch(jobStoreFile("memory"), /Postgres|Redis\b/);
});

Deno.test("migrateFile() migrates the job store only when the queue is the database", () => {
  assert.match(migrateFile("database"), /await migrateJobs\(sql\);/);
  for (const queue of ["redis", "memory"] as const) {
    assert.doesNotMatch(migrateFile(queue), /migrateJobs/);
    assert.match(
      migrateFile(queue),
      /await migrateKernel\(sql\);\n {2}await migrateDatabase\(sql, options\);/,
    );
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
