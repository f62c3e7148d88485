import { camelOf } from "../project/kit_config.ts";

/** The project's ordered migration list, created by the first `generate repository`. */
export function migrationsListFile(): string {
  return `import type postgres from "postgres";
import { type Migration, runMigrations } from "@kit/kernel/postgres";
// kit:begin migration-imports
// kit:end

/** Every context's migrations, one ordered list (each creates its tables in its context's schema). */
export const migrations: readonly Migration[] = [
  // kit:begin migrations
  // kit:end
];

/** Runs the migrations not yet applied, in order (idempotent). */
export function migrateDatabase(sql: postgres.Sql): Promise<void> {
  return runMigrations(sql, { table: "kit_app_migrations", migrations });
}
`;
}

/** One numbered migration creating a repository's table in its context's schema. */
export function migrationFile(id: string, version: number, context: string, table: string): string {
  const schema = context.replaceAll("-", "_");
  return `import type { Migration } from "@kit/kernel/postgres";

/** Creates ${schema}.${table}. Never edit a migration that has run somewhere: add another. */
export const ${id}: Migration = {
  version: ${version},
  sql: \`
create schema if not exists "${schema}";
create table if not exists "${schema}"."${table}" (
  id text primary key,
  data jsonb not null default '{}'::jsonb
);
\`,
};
`;
}

/** The port, the in-memory and PostgreSQL adapters, and the spec of a repository. */
export function repositoryFiles(
  context: string,
  name: string,
  kebab: string,
  table: string,
): { path: string; contents: string }[] {
  const base = `src/contexts/${context}`;
  const schema = context.replaceAll("-", "_");
  const port = `${name}Repository`;
  return [
    {
      path: `${base}/application/ports/${kebab}-repository.ts`,
      contents: `import { token } from "@kit/kernel";
import type { ${name} } from "../../domain/${kebab}.ts";

/** Where ${name} aggregates are kept: loaded by id, saved whole. */
export interface ${port} {
  /** The ${name} with this id, or undefined. */
  get(id: string): Promise<${name} | undefined>;
  /** Saves a ${name} (inserted or replaced). */
  save(${name.charAt(0).toLowerCase() + name.slice(1)}: ${name}): Promise<void>;
}

/** The token ${port} is provided under. */
export const ${port} = token<${port}>("${context}.${port}");
`,
    },
    {
      path: `${base}/infrastructure/${kebab}.memory-repository.ts`,
      contents: `import type { Registration } from "@kit/kernel";
import { ${name} } from "../domain/${kebab}.ts";
import { ${port} } from "../application/ports/${kebab}-repository.ts";

/** ${port} in memory, for specs and single-process runs. */
export class InMemory${port} implements ${port} {
  readonly #rows = new Map<string, string>();

  get(id: string): Promise<${name} | undefined> {
    return Promise.resolve(this.#rows.has(id) ? ${name}.create(id) : undefined);
  }

  save(aggregate: ${name}): Promise<void> {
    this.#rows.set(aggregate.id, aggregate.id);
    return Promise.resolve();
  }
}

/** How the platform provides ${port} in the ${context} context when it runs in memory. */
export const ${camelOf(context)}${port}: Registration = {
  provide: ${port},
  provider: { useClass: InMemory${port}, deps: [] },
};
`,
    },
    {
      path: `${base}/infrastructure/${kebab}.postgres-repository.ts`,
      contents: `import type postgres from "postgres";
import type { Registration } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import { ${name} } from "../domain/${kebab}.ts";
import { ${port} } from "../application/ports/${kebab}-repository.ts";

/** ${port} on PostgreSQL: the table ${schema}.${table}, written in the command's transaction. */
export class Postgres${port} implements ${port} {
  constructor(private readonly sql: postgres.Sql) {}

  async get(id: string): Promise<${name} | undefined> {
    const rows = await currentSql(this.sql)\`select id from "${schema}"."${table}" where id = \${id}\`;
    const row = rows[0];
    // TODO(domain): rebuild the whole aggregate from its columns.
    return row === undefined ? undefined : ${name}.create(row.id as string);
  }

  async save(aggregate: ${name}): Promise<void> {
    await currentSql(this.sql)\`insert into "${schema}"."${table}" (id) values (\${aggregate.id})
      on conflict (id) do update set data = excluded.data\`;
  }
}

/** How the platform provides ${port} in the ${context} context on its database. */
export function ${camelOf(context)}${port}OnPostgres(sql: postgres.Sql): Registration {
  return { provide: ${port}, provider: { useValue: new Postgres${port}(sql) } };
}
`,
    },
    {
      path: `${base}/infrastructure/${kebab}.repository.spec.ts`,
      contents: `import assert from "node:assert/strict";
import postgres from "postgres";
import { migrateDatabase } from "../../../platform/database/migrations.ts";
import { ${name} } from "../domain/${kebab}.ts";
import type { ${port} } from "../application/ports/${kebab}-repository.ts";
import { InMemory${port} } from "./${kebab}.memory-repository.ts";
import { Postgres${port} } from "./${kebab}.postgres-repository.ts";

async function keepsAndFinds(repository: ${port}): Promise<void> {
  const id = crypto.randomUUID();
  assert.equal(await repository.get(id), undefined);
  await repository.save(${name}.create(id));
  await repository.save(${name}.create(id));
  assert.equal((await repository.get(id))?.id, id);
}

Deno.test("${port} in memory keeps and finds a saved ${name}", async () => {
  await keepsAndFinds(new InMemory${port}());
});

const url = Deno.env.get("DATABASE_URL");
Deno.test({
  name: "${port} on PostgreSQL keeps and finds a saved ${name} (needs DATABASE_URL)",
  ignore: url === undefined,
  async fn() {
    const sql = postgres(url!, { onnotice: () => {} });
    try {
      await migrateDatabase(sql);
      await keepsAndFinds(new Postgres${port}(sql));
    } finally {
      await sql.end();
    }
  },
});
`,
    },
  ];
}
