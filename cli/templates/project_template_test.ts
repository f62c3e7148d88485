import assert from "node:assert/strict";
import { projectFiles } from "../commands/init.ts";
import { readRegion } from "../files/marker_regions.ts";
import type { KitConfig } from "../project/kit_config.ts";
import { embeddedGeneratorTemplates, embeddedTemplates } from "./embedded.ts";
import { fillTokens, projectTemplate, templateFile, variantFile } from "./project_template.ts";

const config: KitConfig = {
  name: "shop",
  contexts: [{ name: "order-taking", kind: "core" }],
  relationships: [],
  queue: "database",
  declarations: "decorators",
};

/** The file at `path` of what `kit init` plans for `config` (unformatted). */
function planned(path: string, changes: Partial<KitConfig> = {}, runtimes = ["deno"]): string {
  const write = projectFiles({ ...config, ...changes }, [], runtimes as never).find((w) =>
    w.path === path
  );
  assert.ok(write, `kit init plans ${path}`);
  return write.contents;
}

Deno.test("a template's tokens are filled in its path and contents", () => {
  const write = templateFile("src/contexts/$name$/$name$.module.ts", {
    name: "order-taking",
    camel: "orderTaking",
  });
  assert.equal(write.path, "src/contexts/order-taking/order-taking.module.ts");
  assert.match(
    write.contents,
    /export const orderTakingModule: Module = defineModule\("order-taking"/,
  );
  assert.match(write.contents, /from "\.\/order-taking\.declarations\.ts"/);
  assert.doesNotMatch(write.contents, /\$[a-z]+\$/i);
});

Deno.test("a token without a value is refused, naming the template and the token", () => {
  assert.throws(
    () => projectTemplate("src/contexts/$name$/$name$.module.ts", { name: "billing" }),
    /The template 'src\/contexts\/\$name\$\/\$name\$\.module\.ts' holds \$camel\$, which has no value/,
  );
  assert.equal(fillTokens("a $x$ b", { x: "$y$" }, "t"), "a $y$ b");
});

Deno.test("an unknown template is refused by its path", () => {
  assert.throws(() => projectTemplate("src/nowhere.ts"), /No template 'src\/nowhere\.ts'/);
});

Deno.test("the static templates hold no token; the others only the tokens kit fills", () => {
  const tokens = new Map<string, string[]>();
  for (const [path, text] of Object.entries(embeddedTemplates)) {
    const found = [...new Set((path + text).match(/\$[A-Za-z]+\$/g) ?? [])].sort();
    if (found.length > 0) tokens.set(path, found);
  }
  assert.deepEqual(Object.fromEntries(tokens), {
    "src/contexts/$name$/$name$.module.ts": ["$camel$", "$name$"],
    "src/contexts/$name$/$name$.permissions.ts": ["$camel$", "$name$"],
    "src/contexts/$name$/CONTEXT.md": ["$kind$", "$name$", "$pascal$"],
    "src/main.node.ts": ["$nodeBundle$"],
    "src/platform/config.ts": ["$secret$"],
    "wrangler.toml": ["$project$", "$workersBundle$"],
  });
});

Deno.test("a variant's regions keep their lines by default, else the variant's parts", () => {
  const template = embeddedTemplates["src/platform/database/migrate.ts"]!;
  assert.match(template, /kit:variant migrate-jobs\n/);
  const byDefault = variantFile("src/platform/database/migrate.ts", "database", "database");
  assert.equal(byDefault.path, "src/platform/database/migrate.ts");
  assert.equal(byDefault.contents, template.replace(/^.*kit:variant.*\n/gm, ""));
  const redis = variantFile("src/platform/database/migrate.ts", "redis", "database").contents;
  assert.doesNotMatch(redis, /kit:variant|migrateJobs\(/);
  assert.match(redis, /import \{ migrateJobOutbox \} from "@kit\/jobs\/outbox";\n/);
  assert.match(redis, /\n {2}await migrateJobOutbox\(sql\);\n/);
  const memory = variantFile("src/platform/database/migrate.ts", "memory", "database").contents;
  assert.doesNotMatch(memory, /kit:variant|@kit\/jobs|migrateJob/);
  assert.throws(
    () => variantFile("src/platform/database/migrate.ts", "sqlite", "database"),
    /No template 'init\/migrate\.sqlite\.import\.part\.ts'/,
  );
});

Deno.test("kit init opens the job store of each queue", () => {
  const database = planned("src/platform/jobs/job-store.ts");
  // Each context's jobs in its own schema, routed by queue (the context).
  assert.match(database, /new ContextRoutedJobStore\(/);
  assert.match(
    database,
    /new PostgresJobStore\(sql, \{ schema: name\.replaceAll\("-", "_"\) \}\)/,
  );
  assert.doesNotMatch(database, /Redis/);
  const redis = planned("src/platform/jobs/job-store.ts", { queue: "redis" });
  assert.match(redis, /const url = config\.redisUrl;/);
  assert.match(redis, /await openRedisJobs\(sql, url, config, logger\)/);
  // Its durability monitor is the process's readiness check of the job store.
  assert.match(redis, /check: jobs\.check,/);
  assert.match(
    redis,
    /DATABASE_URL is not set: the queue redis enqueues through the database's outbox/,
  );
  assert.doesNotMatch(redis, /Deno\./);
  assert.doesNotMatch(
    planned("src/platform/jobs/job-store.ts", { queue: "memory" }),
    /Postgres|Redis\b/,
  );
});

Deno.test("kit init --queue redis writes the Redis store, enqueued through the outbox and watched", () => {
  const file = planned("src/platform/jobs/redis-job-store.ts", { queue: "redis" });
  assert.match(file, /new Redis\(url, \{ \.\.\.failFastRedisOptions\(\), lazyConnect: true \}\)/);
  assert.match(file, /requirement: config\.redisDurability/);
  assert.match(
    file,
    /new OutboxJobStore\(\n\s+new RedisJobStore\(scripting, \{ prefix, durability: monitor \}\),\n\s+sql,\n\s+\{ durability: monitor, \.\.\.logged \},\n\s+\)/,
  );
  assert.match(file, /check: \(\) => monitor\.probe\(\)/);
  assert.doesNotMatch(file, /Deno\./);
  assert.ok(
    !projectFiles(config, [], ["deno"]).some((w) => w.path.endsWith("redis-job-store.ts")),
    "only the redis queue has it",
  );
});

Deno.test("kit init migrates the job store when the queue is the database, the jobs' outbox when redis", () => {
  const migrate = (queue: KitConfig["queue"]) =>
    planned("src/platform/database/migrate.ts", { queue });
  assert.match(
    migrate("database"),
    /for \(const \{ name \} of project\.contexts\) \{\n\s+await migrateJobs\(sql, \{\n\s+schema: name\.replaceAll\("-", "_"\),/,
  );
  assert.match(
    migrate("redis"),
    /await migrateKernel\(sql\);\n {2}await migrateJobOutbox\(sql\);\n {2}await migrateDatabase\(sql, options\);/,
  );
  assert.match(
    migrate("memory"),
    /await migrateKernel\(sql\);\n {2}await migrateDatabase\(sql, options\);/,
  );
  for (const queue of ["redis", "memory"] as const) {
    assert.doesNotMatch(migrate(queue), /migrateJobs/);
  }
});

Deno.test("kit init plans the platform, an empty migration list and the contexts' modules", () => {
  const list = planned("src/platform/database/migrations.ts");
  assert.deepEqual(readRegion(list, "migrations", "migrations.ts"), []);
  const compose = planned("src/platform/compose-application.ts");
  for (const region of ["providers", "memory-repositories", "postgres-repositories"]) {
    assert.deepEqual(readRegion(compose, region, "compose-application.ts"), [], region);
  }
  assert.deepEqual(readRegion(compose, "modules", "compose-application.ts"), [
    "orderTakingModule,",
  ]);
  assert.match(planned("src/main.ts"), /serveApplication\(application/);
  assert.match(planned("src/platform/platform-test.module.ts"), /new InMemoryJobStore\(\)/);
  assert.match(planned("src/platform/config.ts"), /const developmentSecret = "development-only-/);
  assert.match(planned("src/main.node.ts", {}, ["deno", "node"]), /`node dist\/main\.node\.mjs`/);
  const wrangler = planned("wrangler.toml", { queue: "redis" }, ["deno", "workers"]);
  assert.match(wrangler, /^name = "shop"$/m);
  assert.match(wrangler, /^main = "dist\/worker\.mjs"$/m);
});

Deno.test("every entry point installs its signal handlers before it prints its ready line", async () => {
  // A supervisor that reads the ready line and sends SIGTERM at once must get a graceful stop
  // (exit 0), not the default action of a signal nobody listens to yet (exit 143).
  const example = new URL("../../example/", import.meta.url);
  const entries: Record<string, string> = {
    "src/main.ts": embeddedTemplates["src/main.ts"]!,
    "apps/worker/main.ts": embeddedTemplates["apps/worker/main.ts"]!,
    "service/main.ts": embeddedGeneratorTemplates["service/main.ts"]!,
    "example/src/main.ts": await Deno.readTextFile(new URL("src/main.ts", example)),
    "example/apps/worker/main.ts": await Deno.readTextFile(new URL("apps/worker/main.ts", example)),
  };
  for (const [path, source] of Object.entries(entries)) {
    const listens = source.indexOf("Deno.addSignalListener(");
    const ready = source.search(/_STARTED"|listening on \$\{/);
    assert.ok(listens > 0 && ready > 0, `${path} listens to signals and prints a ready line`);
    assert.ok(listens < ready, `${path} installs its signal handlers before its ready line`);
  }
});
