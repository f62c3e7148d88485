import assert from "node:assert/strict";
import { ignoreWithout } from "./services.ts";
import { fileSchema } from "./file_schema.ts";

// A parent, a child referencing it, a standalone sequence, an identity, a ledger with a row, and
// a second schema of the file's (`<schema>_other`).
const withSchema = fileSchema(async ({ sql, schema }) => {
  await sql`create table parents (id int generated always as identity primary key)`;
  await sql`create table children (parent int not null references parents (id))`;
  await sql`create sequence tickets`;
  await sql`create table kept_migrations (version int primary key)`;
  await sql`insert into kept_migrations values (1)`;
  await sql.unsafe(`create schema ${schema}_other`);
  await sql.unsafe(`create table ${schema}_other.notes (body text)`);
});

// A set-up that leaves a row outside the ledgers (declared at the top level, as every file schema:
// its drop is an afterAll hook).
const seeded = fileSchema(async ({ sql }) => {
  await sql`create table seeded (id int)`;
  await sql`insert into seeded values (1)`;
});

// An empty set-up.
const bare = fileSchema(() => Promise.resolve());

const schemas: string[] = [];

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({
    name,
    ignore: ignoreWithout("DATABASE_URL"),
    sanitizeOps: false,
    sanitizeResources: false,
    fn,
  });

test("a case writes in every table and advances the sequences", () =>
  withSchema(async ({ sql, schema }) => {
    schemas.push(schema);
    const [row] = await sql`insert into parents default values returning id`;
    await sql`insert into parents default values`;
    await sql`insert into children values (${row!.id})`;
    await sql`select nextval('tickets')`;
    await sql.unsafe(`insert into ${schema}_other.notes values ('kept?')`);
    assert.equal((await sql`select count(*)::int as n from children`)[0]!.n, 1);
  }));

test("the next case finds the schema as the set-up left it: empty, sequences at their start, the ledger kept", () =>
  withSchema(async ({ sql, schema }) => {
    assert.deepEqual(schemas, [schema], "the same schema, not a fresh one");
    for (const table of ["parents", "children", `${schema}_other.notes`]) {
      assert.equal((await sql.unsafe(`select count(*)::int as n from ${table}`))[0]!.n, 0, table);
    }
    assert.equal((await sql`insert into parents default values returning id`)[0]!.id, 1);
    assert.equal((await sql`select nextval('tickets')::int as n`)[0]!.n, 1);
    assert.deepEqual([...await sql`select version from kept_migrations`], [{ version: 1 }]);
  }));

test("a case that changes the schema's relations makes the next one fail, naming the schema", async () => {
  await withSchema(({ sql }) => sql`create table stray (id int)`.then(() => {}));
  await assert.rejects(
    () => withSchema(() => Promise.resolve()),
    new RegExp(`changed the relations of the shared schema ${schemas[0]}`),
  );
});

test("a case that adds a schema named after the file's makes the next one fail too", async () => {
  await bare(({ sql, schema }) => sql.unsafe(`create schema ${schema}_more`).then(() => {}));
  await assert.rejects(() => bare(() => Promise.resolve()), /changed the relations/);
});

test("a set-up that leaves rows outside the ledgers is refused, naming the table", async () => {
  await assert.rejects(
    () => seeded(() => Promise.resolve()),
    /left rows in test_file_\w+\.seeded: only migration ledgers/,
  );
});
