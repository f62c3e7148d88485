import assert from "node:assert/strict";
import postgres from "postgres";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { migrationChecksum } from "./migration_checksum.ts";
import { type Migration, MigrationMismatchError, runMigrations } from "./run_migrations.ts";

/**
 * Runs `fn` on a schema of its own (the client's search path) on the database of DATABASE_URL,
 * dropped afterwards with the schemas named `<schema>_…` the case made (a schema costs a
 * statement, a database a copy of the template: 0.4 s a case).
 */
async function withOwnSchema(
  fn: (sql: postgres.Sql, schema: string) => Promise<void>,
): Promise<void> {
  const url = requireUrl("DATABASE_URL");
  const schema = `kit_ledger_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema ${schema}`);
  const sql = postgres(url, { max: 2, onnotice: () => {}, connection: { search_path: schema } });
  try {
    await fn(sql, schema);
  } finally {
    await sql.end({ timeout: 5 });
    for (const name of [schema, `${schema}_ctx`]) {
      await admin.unsafe(`drop schema if exists ${name} cascade`);
    }
    await admin.end({ timeout: 5 });
  }
}

function ledgerTest(
  name: string,
  fn: (sql: postgres.Sql, schema: string) => Promise<void>,
): void {
  Deno.test({
    name,
    ignore: ignoreWithout("DATABASE_URL"),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withOwnSchema(fn),
  });
}

const people: Migration = {
  version: 1,
  id: "m0001IdentityCreatePeople",
  sql: "create table if not exists people (id text primary key);",
};
const messages: Migration = {
  version: 2,
  id: "m0002NotificationsCreateMessages",
  sql: "create table if not exists messages (id text primary key);",
};
const persons: Migration = {
  version: 2,
  id: "m0002IdentityCreatePersons",
  sql: "create table if not exists persons (id text primary key);",
};
const notes: Migration = {
  version: 3,
  id: "m0003NotesCreateNotes",
  sql: "create table if not exists notes (id text primary key);",
};

async function tables(sql: postgres.Sql): Promise<string[]> {
  return (await sql`
    select table_name from information_schema.tables
    where table_schema = current_schema() order by table_name`).map((r) => r.table_name as string);
}

async function ledger(
  sql: postgres.Sql,
): Promise<{ version: number; id: string; checksum: string }[]> {
  return (await sql`select version, id, checksum from ledger order by version`).map((r) => ({
    version: r.version,
    id: r.id,
    checksum: r.checksum,
  }));
}

async function refusal(run: Promise<void>): Promise<MigrationMismatchError> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof MigrationMismatchError, `refused: ${error}`);
  return error;
}

ledgerTest(
  "runMigrations records each migration's number, id and SHA-256, and runs each once",
  async (sql, schema) => {
    const ctx = `${schema}_ctx`;
    await runMigrations(sql, { table: "ledger", migrations: [messages, people] });
    await runMigrations(sql, { table: "ledger", migrations: [people, messages] });
    assert.deepEqual(await ledger(sql), [
      { version: 1, id: people.id, checksum: await migrationChecksum(people.sql) },
      { version: 2, id: messages.id, checksum: await migrationChecksum(messages.sql) },
    ]);
    // In a schema: its own ledger, kept and checked there.
    await runMigrations(sql, { table: "ledger", schema: ctx, migrations: [people] });
    await runMigrations(sql, { table: "ledger", schema: ctx, migrations: [people] });
    assert.deepEqual(
      (await sql.unsafe(`select version, id from ${ctx}.ledger`)).map((r) => [r.version, r.id]),
      [[1, people.id]],
    );
    const inSchema = await refusal(
      runMigrations(sql, { table: "ledger", schema: ctx, migrations: [persons] }),
    );
    assert.match(inSchema.message, new RegExp(`^${ctx}\\.ledger does not match`));
    assert.equal(
      await migrationChecksum("select 1;\r\nselect 2;"),
      await migrationChecksum("select 1;\nselect 2;"),
    );
    assert.match(await migrationChecksum(""), /^e3b0c44298fc1c149afbf4c8996fb924/);
  },
);

ledgerTest(
  "runMigrations refuses another migration under an applied number, naming both, and applies nothing",
  async (sql) => {
    await runMigrations(sql, { table: "ledger", migrations: [people, messages] });
    const before = await ledger(sql);
    const error = await refusal(
      runMigrations(sql, { table: "ledger", migrations: [people, persons, notes] }),
    );
    assert.deepEqual(error.mismatches, [{
      version: 2,
      applied: { id: messages.id, checksum: await migrationChecksum(messages.sql) },
      project: { id: persons.id, checksum: await migrationChecksum(persons.sql) },
    }]);
    assert.match(
      error.message,
      new RegExp(
        `^ledger does not match the project's migrations, nothing was applied: migration 2: the database applied m0002NotificationsCreateMessages \\(sha256 ${await migrationChecksum(
          messages.sql,
        )}\\), the project has m0002IdentityCreatePersons \\(sha256 ${await migrationChecksum(
          persons.sql,
        )}\\)\\. A migration that ran must never change`,
      ),
    );
    // Nothing applied: neither the persons table nor the notes table (number 3, due).
    assert.deepEqual(await tables(sql), ["ledger", "messages", "people"]);
    assert.deepEqual(await ledger(sql), before);

    // Same id, edited SQL: refused too.
    const edited = { ...messages, sql: `${messages.sql}\ncreate index on messages (id);` };
    const changed = await refusal(
      runMigrations(sql, { table: "ledger", migrations: [people, edited] }),
    );
    assert.equal(changed.mismatches[0]?.project?.id, messages.id);
    assert.notEqual(
      changed.mismatches[0]?.project?.checksum,
      changed.mismatches[0]?.applied.checksum,
    );
  },
);

ledgerTest(
  "runMigrations refuses a database that applied a number the project lacks (code older than the database)",
  async (sql) => {
    await runMigrations(sql, { table: "ledger", migrations: [people, messages, notes] });
    const error = await refusal(
      runMigrations(sql, { table: "ledger", migrations: [people, messages] }),
    );
    assert.deepEqual(error.mismatches.map((m) => [m.version, m.applied.id, m.project]), [
      [3, notes.id, undefined],
    ]);
    assert.match(
      error.message,
      /migration 3: the database applied m0003NotesCreateNotes \(sha256 [0-9a-f]{64}\), which the project does not have \(the code is older than the database\)/,
    );
  },
);

ledgerTest(
  "runMigrations upgrades a ledger of numbers only in place, trusting it once, then checks it",
  async (sql) => {
    // The ledger as it was before ids and checksums: number and time only.
    await sql.unsafe(
      "create table ledger (version integer primary key, applied_at timestamptz not null default now())",
    );
    await sql.unsafe(people.sql);
    await sql`insert into ledger (version) values (1)`;
    const appliedAt = (await sql`select applied_at from ledger`)[0]?.applied_at;
    await runMigrations(sql, { table: "ledger", migrations: [people, messages] });
    assert.deepEqual(await ledger(sql), [
      { version: 1, id: people.id, checksum: await migrationChecksum(people.sql) },
      { version: 2, id: messages.id, checksum: await migrationChecksum(messages.sql) },
    ]);
    assert.deepEqual(
      (await sql`select applied_at from ledger where version = 1`)[0]?.applied_at,
      appliedAt,
    );
    // Checked from now on.
    await refusal(runMigrations(sql, { table: "ledger", migrations: [people, persons] }));

    // An old ledger with a number the list lacks is refused, and not upgraded.
    await sql.unsafe(
      "create table old_ledger (version integer primary key, applied_at timestamptz not null default now())",
    );
    await sql`insert into old_ledger (version) values (1), (7)`;
    const error = await refusal(runMigrations(sql, { table: "old_ledger", migrations: [people] }));
    assert.deepEqual(error.mismatches, [{ version: 7, applied: { id: "7", checksum: "unknown" } }]);
    assert.deepEqual(
      (await sql`select column_name from information_schema.columns
        where table_schema = current_schema() and table_name = 'old_ledger' order by column_name`)
        .map((r) => r.column_name),
      ["applied_at", "version"],
    );
  },
);

ledgerTest(
  "runMigrations with onMismatch reapply forgets the ledger from the first difference, runs the list from there, and says so",
  async (sql) => {
    await runMigrations(sql, { table: "ledger", migrations: [people, messages] });
    const warned: string[] = [];
    const warn = console.error;
    console.error = (...args: unknown[]) => void warned.push(args.join(" "));
    try {
      await runMigrations(sql, {
        table: "ledger",
        migrations: [people, persons, {
          ...messages,
          version: 3,
          id: "m0003NotificationsCreateMessages",
        }],
        onMismatch: "reapply",
      });
    } finally {
      console.error = warn;
    }
    assert.equal(warned.length, 1);
    assert.match(
      warned[0]!,
      / WARN db\.migrations MIGRATION_REAPPLIED ledger: reapply \(development database\): forgetting migration 2 \(m0002NotificationsCreateMessages\) and running the list from 2 count=1$/,
    );
    assert.deepEqual((await ledger(sql)).map((r) => [r.version, r.id]), [
      [1, people.id],
      [2, persons.id],
      [3, "m0003NotificationsCreateMessages"],
    ]);
    assert.deepEqual(await tables(sql), ["ledger", "messages", "people", "persons"]);

    // SQL that does not tolerate what exists fails, and the ledger is as it was.
    const strict = { version: 2, id: "m0002Strict", sql: "create table people (id text);" };
    const before = await ledger(sql);
    await assert.rejects(
      runMigrations(sql, { table: "ledger", migrations: [people, strict], onMismatch: "reapply" }),
      /relation "people" already exists/,
    );
    assert.deepEqual(await ledger(sql), before);
  },
);

ledgerTest("runMigrations refuses a list with two migrations under one number", async (sql) => {
  await assert.rejects(
    runMigrations(sql, { table: "ledger", migrations: [people, messages, persons] }),
    /^TypeError: ledger: two migrations are numbered 2 \(m0002\w+, m0002\w+\): renumber one$/,
  );
  assert.deepEqual(await tables(sql), []);
});
