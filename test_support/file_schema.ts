/**
 * A schema a whole test file shares, for cases that each want the same freshly migrated tables:
 * set up (migrated) once, on the first case that runs, emptied before every later case, dropped
 * after the file's last test — failed, filtered or not. Migrating costs about 100 ms a schema;
 * emptying, one statement.
 *
 * Emptying restores what the set-up left, in one statement: every row of every table of the schema
 * (and of the schemas named `<schema>_…` the set-up made) deleted, referencing tables first, and
 * every sequence set back to its start — except the migration ledgers (tables named
 * `…_migrations`), which keep their rows. The set-up may leave rows in no other table (refused,
 * naming it), and a case may add, drop or rename no relation or schema of the file's (the next
 * case fails, naming the file's schema: such a case needs a fresh schema of its own,
 * `withTestDatabase`). Each case gets clients of its own, so no session
 * state (LISTEN, prepared statements, advisory locks) outlives it.
 *
 * A test file runs in an isolate of its own, even under `deno test --parallel`: the schema is the
 * file's alone. Not published: tests import it by relative path.
 *
 * @module
 */
import postgres from "postgres";
import { ignoreWithout, requireUrl, type TestDatabase } from "./services.ts";

/** Runs one case on the file's schema, emptied. */
export type WithFileSchema = (fn: (db: TestDatabase) => Promise<void>) => Promise<void>;

interface Prepared {
  readonly schema: string;
  readonly url: string;
  /** The statement that checks the catalog is as the set-up left it, then empties the tables. */
  readonly reset: string;
}

/**
 * Declares the file's shared schema (call it at the top level of the test file: it registers the
 * `afterAll` hook that drops the schema).
 *
 * @param setup Migrates the schema (`db.sql`'s search path is the schema); runs once.
 * @param options `max`: the pool size of each case's client (default 4).
 * @returns The function that runs a case on the emptied schema.
 */
export function fileSchema(
  setup: (db: TestDatabase) => Promise<void>,
  options: { max?: number } = {},
): WithFileSchema {
  let admin: postgres.Sql | undefined;
  let created: string | undefined;
  let prepared: Promise<Prepared> | undefined;

  Deno.test.afterAll(async () => {
    if (admin === undefined) return;
    try {
      if (created !== undefined) {
        const schemas = await ownSchemas(admin, created);
        await admin.unsafe(`drop schema ${schemas.map(quote).join(", ")} cascade`);
      }
    } finally {
      await admin.end({ timeout: 5 });
    }
  });

  const prepare = async (): Promise<Prepared> => {
    const url = requireUrl("DATABASE_URL");
    admin = postgres(url, { max: 1, onnotice: () => {} });
    const schema = `test_file_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    await admin.unsafe(`create schema ${schema}`);
    created = schema;
    await withClient(url, schema, options.max, (sql) => setup({ sql, schema, url }));
    const schemas = await ownSchemas(admin, schema);
    const relations = await admin.unsafe(
      `select c.oid::int8::text as oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name,
              c.relname like '%\\_migrations' as ledger, c.relkind as kind, s.seqstart::text as start
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         left join pg_sequence s on s.seqrelid = c.oid
        where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'S')
        order by 2`,
      [schemas],
    );
    const references = await admin.unsafe(
      `select conrelid::int8::text as child, confrelid::int8::text as parent from pg_constraint
        where contype = 'f' and connamespace in (select oid from pg_namespace where nspname = any($1::text[]))`,
      [schemas],
    );
    const tables = relations.filter((r) => r.kind !== "S" && !r.ledger);
    for (const table of tables) {
      const [row] = await admin.unsafe(`select exists (select from ${table.name}) as kept`);
      if (row!.kept) {
        throw new Error(
          `The set-up of the shared schema left rows in ${table.name}: only migration ledgers (…_migrations) may keep rows`,
        );
      }
    }
    // Referencing tables are emptied before the tables they reference.
    const ordered: string[] = [];
    let left = tables.map((t) => ({ oid: t.oid as string, name: t.name as string }));
    while (left.length > 0) {
      const free = left.filter((t) =>
        !references.some((r) =>
          r.parent === t.oid && r.child !== t.oid && left.some((l) => l.oid === r.child)
        )
      );
      if (free.length === 0) {
        throw new Error(`The tables of ${schema} reference each other in a cycle`);
      }
      ordered.push(...free.map((t) => t.name));
      left = left.filter((t) => !free.includes(t));
    }
    const sequences = relations.filter((r) => r.kind === "S");
    const [{ fingerprint }] = await admin.unsafe(
      `select ${catalogFingerprint("$1::text")} as fingerprint`,
      [schema],
    ) as unknown as [{ fingerprint: string }];
    // DELETE, not TRUNCATE: a truncation makes new files for every table and index (measured:
    // 150 ms a case on a loaded machine, as much as migrating), a deletion of a few rows is free.
    const reset = `do $reset$ begin
  if ${catalogFingerprint(`'${schema}'`)} <> '${fingerprint}' then
    raise exception 'A case changed the relations of the shared schema ${schema}: give it a fresh schema (withTestDatabase)';
  end if;
  ${ordered.map((t) => `delete from ${t};`).join("\n  ")}
  ${sequences.map((s) => `perform setval('${s.name}', ${s.start}, false);`).join("\n  ")}
end $reset$`;
    return { schema, url, reset };
  };

  return async (fn) => {
    const first = prepared === undefined;
    prepared ??= prepare();
    const { schema, url, reset } = await prepared;
    if (!first) await admin!.unsafe(reset);
    await withClient(url, schema, options.max, (sql) => fn({ sql, schema, url }));
  };
}

/**
 * The relations of the schema and of the schemas named `<schema>_…`, named with their kind: what
 * a case must leave as it found it. `schema` is an SQL expression.
 */
function catalogFingerprint(schema: string): string {
  return `(select md5(coalesce(string_agg(n.nspname || '.' || coalesce(c.relname || ':' || c.relkind::text, ''), ',' order by n.nspname, c.relname), ''))
  from pg_namespace n left join pg_class c on c.relnamespace = n.oid
  where n.nspname = ${schema} or left(n.nspname, length(${schema}) + 1) = ${schema} || '_')`;
}

/** The schema and the schemas named `<schema>_…`. */
async function ownSchemas(admin: postgres.Sql, schema: string): Promise<string[]> {
  const rows = await admin.unsafe(
    `select nspname from pg_namespace where nspname = $1 or left(nspname, length($1) + 1) = $1 || '_' order by 1`,
    [schema],
  );
  return rows.map((r) => r.nspname as string);
}

async function withClient(
  url: string,
  schema: string,
  max: number | undefined,
  fn: (sql: postgres.Sql) => Promise<void>,
): Promise<void> {
  const sql = postgres(url, {
    max: max ?? 4,
    onnotice: () => {},
    connection: { search_path: schema },
  });
  try {
    await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A `Deno.test` on the file's schema of `withSchema` (skipped without DATABASE_URL): the
 * declaration the files on one schema share.
 */
export function schemaTest(
  withSchema: WithFileSchema,
): (name: string, fn: (db: TestDatabase) => Promise<void>) => void {
  return (name, fn) =>
    Deno.test({
      name,
      ignore: ignoreWithout("DATABASE_URL"),
      sanitizeResources: false,
      sanitizeOps: false,
      fn: () => withSchema(fn),
    });
}
