/**
 * Two branches each `kit generate repository` (both take migration 2), merged, the second
 * renumbered on top by the generator: a database migrated on either branch then meets the merged
 * project's list. The project's own `migrate` runs on databases of the test's own.
 *
 * @module
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { createTestDatabase, type TestDatabase } from "./served_project.ts";
import { initializedProject, quietly, runIn } from "./test_project.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");

/** git in `dir`, as a worker would run it; fails unless it exits 0. */
function git(dir: string, ...args: string[]): Promise<string> {
  return runIn(dir, "git", [
    "-c",
    "user.email=worker@example.com",
    "-c",
    "user.name=worker",
    ...args,
  ]);
}

async function kit(dir: string, ...args: string[]): Promise<void> {
  const { result, stderr } = await quietly(() => main(args, dir));
  assert.equal(result, 0, `kit ${args.join(" ")}: ${stderr.join(" ")}`);
}

/** The project's `migrate` (what its entry points run at start) on `url`: exit code and output. */
async function migrate(
  dir: string,
  url: string,
  env: Record<string, string> = {},
): Promise<{ code: number; text: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "migrate-now.ts"],
    cwd: dir,
    env: { NO_COLOR: "1", ...env, DATABASE_URL: url },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, text: decode(output.stdout) + decode(output.stderr) };
}

const migrateNow = `import postgres from "postgres";
import { readConfig } from "./src/platform/config.ts";
import { migrate } from "./src/platform/database/migrate.ts";

const config = readConfig(Deno.env.toObject());
const sql = postgres(config.databaseUrl!, { max: 1, onnotice: () => {} });
try {
  await migrate(sql, { reapply: config.migrationsReapply });
  console.log("migrated");
} finally {
  await sql.end();
}
`;

async function ledger(db: TestDatabase): Promise<string[]> {
  return (await db.sql`select version, id from kit_app_migrations order by version`)
    .map((r) => `${r.version} ${r.id}`);
}

/** The contexts' own tables (kit's job tables, in every context's schema, left out). */
async function tables(db: TestDatabase): Promise<string[]> {
  return (await db.sql`
    select table_schema || '.' || table_name as name from information_schema.tables
    where table_schema in ('identity', 'notifications', 'scheduling')
    and table_name not in ('background_jobs', 'background_job_workers', 'kit_jobs_migrations')
    order by name`)
    .map((r) => r.name as string);
}

async function checksum(db: TestDatabase, version: number): Promise<string> {
  const [row] = await db.sql`select checksum from kit_app_migrations where version = ${version}`;
  return row?.checksum as string;
}

Deno.test({
  name:
    "kit generate repository on two branches, merged and renumbered: a database migrated on the first applies only the moved migration; one migrated on the second is refused naming both, until KIT_MIGRATIONS_REAPPLY=1",
  ignore: databaseUrl === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--no-git"]);
    for (
      const args of [
        ["generate", "aggregate", "scheduling", "Appointment"],
        ["generate", "aggregate", "identity", "Person"],
        ["generate", "aggregate", "notifications", "Message"],
        ["generate", "repository", "scheduling", "Appointment"],
      ]
    ) await kit(dir, ...args);
    await writeFile(join(dir, "migrate-now.ts"), migrateNow);
    await git(dir, "init", "-q", "-b", "main");
    // Every conflict in the generator's lists resolved by keeping both sides, as a person would.
    await writeFile(join(dir, ".git/info/attributes"), "* merge=union\n");
    await git(dir, "add", ".");
    await git(dir, "commit", "-qm", "bootstrap");
    await git(dir, "checkout", "-q", "-b", "persons");
    await kit(dir, "generate", "repository", "identity", "Person");
    await git(dir, "add", ".");
    await git(dir, "commit", "-qm", "identity: persons (migration 2)");
    await git(dir, "checkout", "-q", "-b", "messages", "main");
    await kit(dir, "generate", "repository", "notifications", "Message");
    await git(dir, "add", ".");
    await git(dir, "commit", "-qm", "notifications: messages (migration 2)");

    const onPersons = await createTestDatabase(databaseUrl!);
    const onMessages = await createTestDatabase(databaseUrl!);
    try {
      const migrated = await migrate(dir, onMessages.url);
      assert.equal(migrated.code, 0, migrated.text);
      await git(dir, "checkout", "-q", "persons");
      assert.equal((await migrate(dir, onPersons.url)).code, 0);
      assert.deepEqual(await ledger(onPersons), [
        "1 scheduling/create-appointments",
        "2 identity/create-persons",
      ]);
      const personsSql = await checksum(onPersons, 2);
      const messagesSql = await checksum(onMessages, 2);

      // The merge keeps both migration 2; the generator moves the second on top.
      await git(dir, "merge", "-q", "--no-edit", "messages");
      await kit(dir, "generate", "repository", "notifications", "Message");
      await kit(dir, "docs");

      // Migrated on the first branch: only the moved migration runs, and the ledger says so.
      const merged = await migrate(dir, onPersons.url);
      assert.equal(merged.code, 0, merged.text);
      assert.deepEqual(await ledger(onPersons), [
        "1 scheduling/create-appointments",
        "2 identity/create-persons",
        "3 notifications/create-messages",
      ]);
      assert.equal(await checksum(onPersons, 3), messagesSql);
      assert.deepEqual(await tables(onPersons), [
        "identity.persons",
        "notifications.messages",
        "scheduling.appointments",
      ]);

      // Migrated on the second branch: its migration 2 is not the project's. Refused, naming
      // both, and nothing applied (no persons table, the ledger as it was).
      const refused = await migrate(dir, onMessages.url);
      assert.equal(refused.code, 1);
      assert.match(
        refused.text,
        new RegExp(
          `kit_app_migrations does not match the project's migrations, nothing was applied: migration 2: the database applied notifications/create-messages \\(sha256 ${messagesSql}\\), the project has identity/create-persons \\(sha256 ${personsSql}\\)\\. A migration that ran must never change: add another .*\\. In this project: KIT_MIGRATIONS_REAPPLY=1 \\(development databases only\\)`,
        ),
      );
      assert.deepEqual(await ledger(onMessages), [
        "1 scheduling/create-appointments",
        "2 notifications/create-messages",
      ]);
      assert.deepEqual(await tables(onMessages), [
        "notifications.messages",
        "scheduling.appointments",
      ]);

      // The way out for a development database: explicit, and loud.
      const reapplied = await migrate(dir, onMessages.url, { KIT_MIGRATIONS_REAPPLY: "1" });
      assert.equal(reapplied.code, 0, reapplied.text);
      assert.match(
        reapplied.text,
        /WARN db.migrations MIGRATION_REAPPLIED kit_app_migrations: reapply \(development database\): forgetting migration 2 \(notifications\/create-messages\) and running the list from 2/,
      );
      assert.deepEqual(await ledger(onMessages), await ledger(onPersons));
      assert.deepEqual(await tables(onMessages), await tables(onPersons));
      assert.equal((await migrate(dir, onMessages.url)).code, 0);
    } finally {
      await onPersons.drop();
      await onMessages.drop();
    }
  },
});
