/**
 * `kit init --orm` and `kit generate repository` on each ORM, in process: the files each ORM gets
 * (its `orm.ts`, on Drizzle the schema registry), the platform composed on the ORM, the
 * repositories registered on it. The end-to-end test of each (`cli/tests/orm_projects_test.ts`)
 * runs the projects.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRegion } from "../files/marker_regions.ts";
import { kitIn } from "./test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));

async function initialized(orm: string | undefined): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "kit-init-orm-" });
  const dir = join(parent, "library");
  const { result, out } = await kitIn(parent, ...[
    ..."init library --context members:supporting --no-git --link".split(" "),
    checkout,
    ...(orm === undefined ? [] : ["--orm", orm]),
  ]);
  assert.equal(result, 0, out);
  return dir;
}

const read = (dir: string, path: string) => readFile(join(dir, path), "utf8");

Deno.test("kit init --orm drizzle: Drizzle over the platform's client, the schema registry, the jobs on Drizzle per context", async () => {
  const dir = await initialized("drizzle");
  try {
    assert.equal(JSON.parse(await read(dir, "kit.config.json")).orm, "drizzle");
    const denoJson = JSON.parse(await read(dir, "deno.json"));
    assert.equal(denoJson.imports["drizzle-orm"], "npm:drizzle-orm@0.45.4");
    assert.equal(denoJson.nodeModulesDir, "auto");
    assert.ok(denoJson.links.includes(join(checkout, "drizzle")));
    assert.ok(!denoJson.links.includes(join(checkout, "knex")));
    const orm = await read(dir, "src/platform/database/orm.ts");
    assert.match(
      orm,
      /return \{ db: drizzle\(sql as never\), close: \(\) => Promise\.resolve\(\) \};/,
    );
    assert.match(orm, /new DrizzleJobStore\(db, \{ schema \}\)/);
    assert.match(orm, /transactions: new DrizzleTransactions\(db\),/);
    assert.deepEqual(
      readRegion(await read(dir, "src/platform/database/schema.ts"), "tables", ""),
      [],
    );
    assert.ok(
      JSON.parse(await read(dir, "knip.json")).entry.includes("src/platform/database/schema.ts"),
    );
    const jobs = await read(dir, "src/platform/jobs/job-store.ts");
    assert.match(jobs, /contextJobStore\(db, name\.replaceAll\("-", "_"\)\)/);
    assert.doesNotMatch(jobs, /PostgresJobStore/);
    const environment = await read(dir, "src/platform/platform-environment.ts");
    assert.match(
      environment,
      /const orm = url && sql \? openOrm\(url, sql, config\.database\) : undefined;/,
    );
    assert.match(environment, /await openJobStore\(orm\?\.db, config, logger\)/);
    const compose = await read(dir, "src/platform/compose-application.ts");
    assert.match(compose, /const onOrm = orm \? ormPersistence\(orm\) : undefined;/);
    assert.match(compose, /outbox: onOrm\?\.outbox \?\? new InMemoryOutbox\(\),/);
    assert.doesNotMatch(compose, /PostgresTransactions|PostgresOutbox|PostgresProcessedEvents/);
    // Migrated as a postgres.js project: each context's jobs in its own schema, with the ledger.
    assert.match(await read(dir, "src/platform/database/migrate.ts"), /await migrateJobs\(sql, \{/);

    const { result, out } = await kitIn(dir, "generate", "repository", "members", "Member");
    assert.notEqual(result, 0, "no aggregate yet");
    assert.match(out, /Aggregate 'Member' does not exist/);
    for (
      const args of [
        ["generate", "aggregate", "members", "Member"],
        ["generate", "repository", "members", "Member"],
        ["generate", "aggregate", "members", "LibraryCard"],
        ["generate", "repository", "members", "LibraryCard"],
      ]
    ) {
      const run = await kitIn(dir, ...args);
      assert.equal(run.result, 0, run.out);
    }
    const infrastructure = "src/contexts/members/infrastructure";
    assert.ok(existsSync(join(dir, `${infrastructure}/member.drizzle-repository.ts`)));
    assert.ok(!existsSync(join(dir, `${infrastructure}/member.postgres-repository.ts`)));
    assert.match(
      await read(dir, `${infrastructure}/library-card.table.ts`),
      /export const libraryCards = pgSchema\("members"\)\.table\("library_cards", \{/,
    );
    assert.deepEqual(
      readRegion(await read(dir, "src/platform/database/schema.ts"), "tables", ""),
      [
        'export { libraryCards as membersLibraryCards } from "../../contexts/members/infrastructure/library-card.table.ts";',
        'export { members as membersMembers } from "../../contexts/members/infrastructure/member.table.ts";',
      ],
    );
    const composed = await read(dir, "src/platform/compose-application.ts");
    assert.deepEqual(readRegion(composed, "orm-repositories", ""), [
      "membersLibraryCardRepositoryOnDrizzle,",
      "membersMemberRepositoryOnDrizzle,",
    ]);
    assert.deepEqual(readRegion(composed, "postgres-repositories", ""), []);
    const spec = await read(dir, `${infrastructure}/member.repository.spec.ts`);
    assert.match(spec, /check\(new DrizzleMemberRepository\(orm\.db\)\)/);
    assert.match(spec, /its Drizzle table is the migrated one, column for column/);
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("kit init --orm knex: Knex on pg, no schema registry, repositories on Knex", async () => {
  const dir = await initialized("knex");
  try {
    const denoJson = JSON.parse(await read(dir, "deno.json"));
    assert.equal(denoJson.imports.knex, "npm:knex@3.3.0");
    assert.equal(denoJson.imports.pg, "npm:pg@8.23.1");
    assert.equal(denoJson.imports["drizzle-orm"], undefined);
    const orm = await read(dir, "src/platform/database/orm.ts");
    assert.match(orm, /client: "pg",/);
    assert.match(orm, /return \{ db, close: \(\) => db\.destroy\(\) \};/);
    // The pool and the time-outs of the DATABASE_* variables, as the postgres.js client's.
    assert.match(orm, /const options = postgresClientOptions\(settings\);/);
    assert.match(orm, /pool: \{ min: 0, max: Number\(options\.max\) \},/);
    assert.match(orm, /new KnexJobStore\(db, \{ schema \}\)/);
    assert.ok(!existsSync(join(dir, "src/platform/database/schema.ts")));
    for (
      const args of [
        ["generate", "aggregate", "members", "Member"],
        ["generate", "repository", "members", "Member"],
      ]
    ) {
      const run = await kitIn(dir, ...args);
      assert.equal(run.result, 0, run.out);
    }
    const repository = await read(
      dir,
      "src/contexts/members/infrastructure/member.knex-repository.ts",
    );
    assert.match(
      repository,
      /return currentKnex\(this\.db\)\("members"\)\.withSchema\("members"\);/,
    );
    assert.deepEqual(
      readRegion(await read(dir, "src/platform/compose-application.ts"), "orm-repositories", ""),
      ["membersMemberRepositoryOnKnex,"],
    );
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("kit init without --orm stays on postgres.js: no orm.ts, no node_modules folder", async () => {
  const dir = await initialized(undefined);
  try {
    assert.equal(JSON.parse(await read(dir, "kit.config.json")).orm, undefined);
    assert.equal(JSON.parse(await read(dir, "deno.json")).nodeModulesDir, undefined);
    assert.ok(!existsSync(join(dir, "src/platform/database/orm.ts")));
    const compose = await read(dir, "src/platform/compose-application.ts");
    assert.match(
      compose,
      /\.\.\.\(sql \? \{ transactions: new PostgresTransactions\(sql\) \} : \{\}\),/,
    );
    assert.doesNotMatch(compose, /ormPersistence|ormRepositories|\borm\b/);
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});
