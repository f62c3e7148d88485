import { aOrAn, camelOf, kebabOf } from "../project/kit_config.ts";
import { errorCodesName } from "./generate_error_code.ts";
import { builderNames } from "./aggregate_builder.ts";

/**
 * One numbered migration creating a repository's table in its context's schema: each row the
 * aggregate's snapshot (`data`) with its tenant and its version, keyed by `(tenant_id, id)`.
 */
export function migrationFile(
  constant: string,
  version: number,
  context: string,
  name: string,
  table: string,
): string {
  const schema = context.replaceAll("-", "_");
  return `import type { Migration } from "@kit/kernel/postgres";

/**
 * Creates ${schema}.${table}. Never edit a migration that has run somewhere: add another (the
 * ledger keeps its id and the SHA-256 of its SQL, and refuses a database where they differ).
 */
export const ${constant}: Migration = {
  version: ${version},
  id: "${context}/${name}",
  sql: \`
create schema if not exists "${schema}";
-- Keyed by tenant and id: each tenant names its own ids, and one tenant's id neither blocks nor
-- reveals another's.
create table if not exists "${schema}"."${table}" (
  tenant_id text not null,
  id text not null,
  data jsonb not null default '{}'::jsonb,
  version integer not null check (version > 0),
  primary key (tenant_id, id)
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
  const port = `${name}Repository`;
  return [
    {
      path: `${base}/application/ports/${kebab}-repository.ts`,
      contents: portFile(context, name, kebab),
    },
    {
      path: `${base}/infrastructure/${kebab}.memory-repository.ts`,
      contents: memoryRepositoryFile(context, name, kebab),
    },
    {
      path: `${base}/infrastructure/${kebab}.postgres-repository.ts`,
      contents: postgresRepositoryFile(context, name, kebab, table),
    },
    {
      path: `${base}/infrastructure/${kebab}.repository.spec.ts`,
      contents: repositorySpecFile(name, kebab, port),
    },
  ];
}

function portFile(context: string, name: string, kebab: string): string {
  const port = `${name}Repository`;
  const variable = name.charAt(0).toLowerCase() + name.slice(1);
  const one = aOrAn(name);
  return `import { token, type Versioned } from "@kit/kernel";
import type { ${name} } from "../../domain/${kebab}.ts";

/**
 * Where ${name} aggregates are kept. Tenant-owned: ${one} is added for the tenant
 * of the work that adds it (\`TENANT_REQUIRED\` when the work has none) and only that tenant's
 * work finds or saves it; ids are each tenant's own. Versioned: \`get\` answers the version it
 * loaded, \`save\` expects it, and a save on a version other work changed meanwhile is refused
 * (\`CONCURRENT_UPDATE\`, 409) and changes nothing.
 */
export interface ${port} {
  /**
   * The ${name} with this id and the version it was loaded at; undefined when the tenants
   * the work reaches have none. Work that reaches no tenant is refused (\`TENANT_REQUIRED\`).
   */
  get(id: string): Promise<Versioned<${name}> | undefined>;
  /**
   * Adds a new ${name} for the work's tenant, at version 1 (answered). An id the tenant keeps
   * already is refused (\`${existsCode(name)}\`, 409), never overwritten; another tenant's
   * ${name} of the same id is no obstacle, and is never revealed.
   */
  add(${variable}: ${name}): Promise<number>;
  /**
   * Saves ${one} loaded at \`version\` and answers its new version;
   * \`CONCURRENT_UPDATE\` when other work saved it since (or it is another tenant's).
   */
  save(${variable}: ${name}, version: number): Promise<number>;
  /**
   * One page (\`page\` from 1, \`pageSize\` of them) of the ${name}s of the tenants the work
   * reaches, by id, and how many they have in all. Work that reaches no tenant is refused
   * (\`TENANT_REQUIRED\`).
   */
  list(page: number, pageSize: number): Promise<${name}Page>;
}

/** One page of ${name}s, and how many there are in all. */
export interface ${name}Page {
  readonly items: readonly ${name}[];
  readonly total: number;
}

/** The token ${port} is provided under. */
export const ${port} = token<${port}>("${context}.${port}");
`;
}

function memoryRepositoryFile(context: string, name: string, kebab: string): string {
  const port = `${name}Repository`;
  const errors = errorCodesName(context);
  return `import { InMemoryAggregates, readableTenants, type Registration, type Versioned } from "@kit/kernel";
import { ${errors} } from "../domain/${context}-errors.ts";
import { ${name}, type ${name}Snapshot } from "../domain/${kebab}.ts";
import { ${port}, type ${name}Page } from "../application/ports/${kebab}-repository.ts";

/**
 * ${port} in memory, for specs and single-process runs, with the guarantees of the PostgreSQL one:
 * each ${name} kept with the tenant of the work that added it, keyed by that tenant and its id, and
 * found by that tenant's work only; each save expecting the version it loaded. Snapshots are kept
 * as JSON, as PostgreSQL keeps them.
 */
export class InMemory${port} implements ${port} {
  readonly #rows = new InMemoryAggregates<${name}Snapshot>("${kebab}", {
    exists: (id) => ${existsError(errors, name, "id")},
  });

  get(id: string): Promise<Versioned<${name}> | undefined> {
    return settled(() => {
      readableTenants(); // work that reaches no tenant is refused, as on PostgreSQL
      const row = this.#rows.find(id);
      return row && { state: ${name}.restore(row.state), version: row.version };
    });
  }

  add(aggregate: ${name}): Promise<number> {
    return settled(() => this.#rows.insert(asJson(aggregate.snapshot())));
  }

  save(aggregate: ${name}, version: number): Promise<number> {
    return settled(() => this.#rows.update(asJson(aggregate.snapshot()), version));
  }

  list(page: number, pageSize: number): Promise<${name}Page> {
    return settled(() => {
      readableTenants(); // work that reaches no tenant is refused, as on PostgreSQL
      const rows = this.#rows.list().sort((a, b) => a.state.id < b.state.id ? -1 : a.state.id > b.state.id ? 1 : 0);
      const start = (page - 1) * pageSize;
      return {
        items: rows.slice(start, start + pageSize).map((row) => ${name}.restore(row.state)),
        total: rows.length,
      };
    });
  }
}

/** The snapshot as PostgreSQL keeps it: what does not survive JSON fails in memory too. */
function asJson(snapshot: ${name}Snapshot): ${name}Snapshot {
  return JSON.parse(JSON.stringify(snapshot));
}

/** What \`work\` answers, as a promise; what it throws, as a rejection (Node 20 has no Promise.try). */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** How the platform provides ${port} in the ${context} context when it runs in memory. */
export const ${camelOf(context)}${port}: Registration = {
  provide: ${port},
  provider: { useClass: InMemory${port}, deps: [] },
};
`;
}

/** The code a create of an id the tenant keeps already answers (\`LOAN_EXISTS\`, 409). */
export function existsCode(aggregate: string): string {
  return `${kebabOf(aggregate).toUpperCase().replaceAll("-", "_")}_EXISTS`;
}

/** How a repository refuses an id its tenant keeps already: nothing of other tenants said. */
function existsError(errors: string, name: string, id: string): string {
  return `${errors}.${existsCode(name)}.error(\`The tenant has ${
    aOrAn(name)
  } of id '\${${id}}' already: choose another id\`, { ${id} })`;
}

function postgresRepositoryFile(
  context: string,
  name: string,
  kebab: string,
  table: string,
): string {
  const port = `${name}Repository`;
  const errors = errorCodesName(context);
  const qualified = `"${context.replaceAll("-", "_")}"."${table}"`;
  return `import type postgres from "postgres";
import {
  currentScope,
  expectSaved,
  readableTenants,
  type Registration,
  requireTenant,
  type Versioned,
} from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import { ${errors} } from "../domain/${context}-errors.ts";
import { ${name} } from "../domain/${kebab}.ts";
import { ${port}, type ${name}Page } from "../application/ports/${kebab}-repository.ts";

/**
 * ${port} on PostgreSQL: the table ${qualified.replaceAll('"', "")}, keyed by
 * \`(tenant_id, id)\` and written in the command's transaction. A row is written with the work's
 * tenant (\`requireTenant()\`), read and saved only by work that reaches its tenant (every tenant:
 * the system actor's work), and saved only at the version it was loaded at (\`expectSaved\`).
 * Work that reaches several tenants keeping the same id finds and saves its own tenant's row,
 * else the first tenant's by \`tenant_id\`.
 */
export class Postgres${port} implements ${port} {
  constructor(private readonly sql: postgres.Sql) {}

  async get(id: string): Promise<Versioned<${name}> | undefined> {
    const [row] = await currentSql(this.sql)\`
      select id, data, version from ${qualified}
      where id = \${id} and \${this.#reachedTenants()}
      order by \${this.#ownTenantFirst()} limit 1\`;
    if (row === undefined) return undefined;
    return { state: ${name}.restore({ ...row.data, id: row.id }), version: row.version };
  }

  async add(aggregate: ${name}): Promise<number> {
    const snapshot = aggregate.snapshot();
    const data = JSON.stringify(snapshot);
    const id = snapshot.id;
    const result = await currentSql(this.sql)\`
      insert into ${qualified} (tenant_id, id, data, version)
      values (\${requireTenant()}, \${id}, \${data}::text::jsonb, 1)
      on conflict (tenant_id, id) do nothing\`;
    if (result.count === 0) throw ${existsError(errors, name, "id")};
    return 1;
  }

  async save(aggregate: ${name}, version: number): Promise<number> {
    const snapshot = aggregate.snapshot();
    const data = JSON.stringify(snapshot);
    const result = await currentSql(this.sql)\`
      update ${qualified} set data = \${data}::text::jsonb, version = version + 1
      where id = \${snapshot.id} and version = \${version} and tenant_id = (
        select tenant_id from ${qualified}
        where id = \${snapshot.id} and \${this.#reachedTenants()}
        order by \${this.#ownTenantFirst()} limit 1)\`;
    return expectSaved(result.count, { type: "${kebab}", id: snapshot.id, version });
  }

  async list(page: number, pageSize: number): Promise<${name}Page> {
    const tenants = this.#reachedTenants();
    // By id compared as bytes (collate "C"), as the in-memory one sorts; offset paging reads the
    // rows it skips: for deep pages of large tenants, page by the last id seen instead.
    const rows = await currentSql(this.sql)\`
      select id, data from ${qualified} where \${tenants}
      order by id collate "C", tenant_id collate "C"
      limit \${pageSize} offset \${(page - 1) * pageSize}\`;
    const [counted] = await currentSql(this.sql)\`
      select count(*)::int as total from ${qualified} where \${tenants}\`;
    return {
      items: rows.map((row) => ${name}.restore({ ...row.data, id: row.id })),
      total: counted!.total,
    };
  }

  /** The rows of the tenants the work reaches (\`TENANT_REQUIRED\` when it reaches none). */
  #reachedTenants(): postgres.PendingQuery<postgres.Row[]> {
    const tenants = readableTenants();
    return tenants === undefined ? this.sql\`true\` : this.sql\`tenant_id in \${this.sql(tenants)}\`;
  }

  /** The order that puts the row of the work's own tenant first, then the others by tenant. */
  #ownTenantFirst(): postgres.PendingQuery<postgres.Row[]> {
    const own = currentScope()?.execution.tenantId;
    return own === undefined
      ? this.sql\`tenant_id collate "C"\`
      : this.sql\`tenant_id <> \${own}, tenant_id collate "C"\`;
  }
}

/** How the platform provides ${port} in the ${context} context on its database. */
export function ${camelOf(context)}${port}OnPostgres(sql: postgres.Sql): Registration {
  return { provide: ${port}, provider: { useValue: new Postgres${port}(sql) } };
}
`;
}

function repositorySpecFile(name: string, kebab: string, port: string): string {
  const build = builderNames(name).instance;
  const exists = existsCode(name);
  return `import assert from "node:assert/strict";
import postgres from "postgres";
import {
  type ExecutionContext,
  isRefusal,
  runInScope,
  systemActor,
  userActor,
} from "@kit/kernel";
import { migrateDatabase } from "../../../platform/database/migrations.ts";
import { ${build} } from "../domain/${kebab}.builder.ts";
import type { ${port} } from "../application/ports/${kebab}-repository.ts";
import { InMemory${port} } from "./${kebab}.memory-repository.ts";
import { Postgres${port} } from "./${kebab}.postgres-repository.ts";

function within<T>(execution: ExecutionContext, work: () => Promise<T>): Promise<T> {
  return runInScope({ execution }, work);
}

/** Runs \`work\` as a user of the tenant given, for that tenant. */
function inTenant<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
  const actor = userActor(\`user-of-\${tenantId}\`, { tenants: [tenantId] });
  return within({ origin: "test", actor, tenantId, correlationId: "spec" }, work);
}

/** Runs \`work\` as a user of two tenants who names neither: it reaches no tenant. */
function withoutTenant<T>(work: () => Promise<T>): Promise<T> {
  const actor = userActor("user-of-two", { tenants: ["t1", "t2"] });
  return within({ origin: "test", actor, correlationId: "spec" }, work);
}

/** Runs \`work\` as the system actor, which reaches every tenant. */
function asSystem<T>(work: () => Promise<T>): Promise<T> {
  return within({ origin: "test", actor: systemActor, correlationId: "spec" }, work);
}

const refusal = (code: string) => (error: unknown) => isRefusal(error, code);

/** What every ${port} guarantees, whatever keeps it. */
const contract: Record<string, (repository: ${port}) => Promise<void>> = {
  "keeps and finds each ${name} added, at its version": async (repository) => {
    const id = crypto.randomUUID();
    assert.equal(await inTenant("t1", () => repository.get(id)), undefined);
    assert.equal(await inTenant("t1", () => repository.add(${build}(id))), 1);
    const loaded = await inTenant("t1", () => repository.get(id));
    assert.ok(loaded, "found in its tenant");
    assert.deepEqual(loaded.state.snapshot(), ${build}(id).snapshot());
    assert.equal(loaded.version, 1);
    assert.equal(await inTenant("t1", () => repository.save(loaded.state, loaded.version)), 2);
    assert.equal((await inTenant("t1", () => repository.get(id)))?.version, 2);
  },
  "keeps tenants apart: each tenant's ${name} of one id is its own, the other's never found nor saved": async (
    repository,
  ) => {
    const id = crypto.randomUUID();
    await inTenant("t1", () => repository.add(${build}(id)));
    assert.equal(await inTenant("t2", () => repository.get(id)), undefined);
    await assert.rejects(
      inTenant("t2", () => repository.save(${build}(id), 1)),
      refusal("CONCURRENT_UPDATE"),
    );
    assert.equal(await inTenant("t2", () => repository.add(${build}(id))), 1, "t2 names its own");
    // Work reaching both (the system's) finds and saves one row: the first tenant's, t1's.
    const reached = await asSystem(() => repository.get(id));
    assert.ok(reached, "the system reaches all");
    assert.equal(await asSystem(() => repository.save(reached.state, reached.version)), 2);
    assert.equal((await inTenant("t1", () => repository.get(id)))?.version, 2);
    assert.equal((await inTenant("t2", () => repository.get(id)))?.version, 1, "t2's stands");
    assert.equal(await inTenant("t2", () => repository.save(${build}(id), 1)), 2);
  },
  "refuses an id its tenant keeps already (${exists}), and keeps the first": async (repository) => {
    const id = crypto.randomUUID();
    await inTenant("t1", () => repository.add(${build}(id)));
    await inTenant("t1", () => repository.save(${build}(id), 1));
    await assert.rejects(inTenant("t1", () => repository.add(${build}(id))), refusal("${exists}"));
    assert.equal((await inTenant("t1", () => repository.get(id)))?.version, 2, "the first stands");
  },
  "refuses work without a tenant (TENANT_REQUIRED): no ${name} is written without one": async (
    repository,
  ) => {
    const id = crypto.randomUUID();
    await assert.rejects(
      withoutTenant(() => repository.add(${build}(id))),
      refusal("TENANT_REQUIRED"),
    );
    await assert.rejects(
      asSystem(() => repository.add(${build}(id))),
      refusal("TENANT_REQUIRED"),
    );
    await assert.rejects(withoutTenant(() => repository.get(id)), refusal("TENANT_REQUIRED"));
    assert.equal(await asSystem(() => repository.get(id)), undefined);
  },
  "refuses a stale save (CONCURRENT_UPDATE) and keeps the newer one": async (repository) => {
    const id = crypto.randomUUID();
    await inTenant("t1", () => repository.add(${build}(id)));
    const first = await inTenant("t1", () => repository.get(id));
    const second = await inTenant("t1", () => repository.get(id));
    assert.ok(first && second);
    assert.equal(await inTenant("t1", () => repository.save(first.state, first.version)), 2);
    await assert.rejects(
      inTenant("t1", () => repository.save(second.state, second.version)),
      refusal("CONCURRENT_UPDATE"),
    );
    const kept = await inTenant("t1", () => repository.get(id));
    assert.equal(kept?.version, 2, "the newer save stands");
    assert.deepEqual(kept?.state.snapshot(), first.state.snapshot());
  },
  "lists a tenant's ${name}s by id, a page at a time, and none of another tenant's": async (
    repository,
  ) => {
    const tenant = \`t-\${crypto.randomUUID()}\`;
    const ids = ["c", "a", "b"].map((letter) => \`\${letter}-\${crypto.randomUUID()}\`);
    for (const id of ids) await inTenant(tenant, () => repository.add(${build}(id)));
    await inTenant("t-other", () => repository.add(${build}(crypto.randomUUID())));
    const first = await inTenant(tenant, () => repository.list(1, 2));
    assert.deepEqual(first.items.map((item) => item.id), [...ids].sort().slice(0, 2));
    assert.equal(first.total, 3);
    const second = await inTenant(tenant, () => repository.list(2, 2));
    assert.deepEqual(second.items.map((item) => item.id), [...ids].sort().slice(2));
    assert.deepEqual((await inTenant(tenant, () => repository.list(3, 2))).items, []);
    await assert.rejects(withoutTenant(() => repository.list(1, 2)), refusal("TENANT_REQUIRED"));
  },
};

for (const [guarantee, check] of Object.entries(contract)) {
  Deno.test(\`InMemory${port} \${guarantee}\`, () => check(new InMemory${port}()));
}

/** Runs \`work\` on a migrated database of its own on the server of \`server\`, dropped after. */
async function onOwnDatabase(
  server: string,
  work: (sql: postgres.Sql) => Promise<void>,
): Promise<void> {
  const name = \`spec_\${crypto.randomUUID().replaceAll("-", "")}\`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(\`create database "\${name}"\`);
  const url = new URL(server);
  url.pathname = \`/\${name}\`;
  const sql = postgres(url.href, { onnotice: () => {} });
  try {
    await migrateDatabase(sql);
    await work(sql);
  } finally {
    await sql.end();
    await admin.unsafe(\`drop database if exists "\${name}" with (force)\`);
    await admin.end();
  }
}

const server = Deno.env.get("DATABASE_URL");
Deno.test({
  name: "Postgres${port} on a database of its own (needs DATABASE_URL)",
  ignore: server === undefined,
  async fn(t) {
    await onOwnDatabase(server!, async (sql) => {
      for (const [guarantee, check] of Object.entries(contract)) {
        await t.step(guarantee, () => check(new Postgres${port}(sql)));
      }
    });
  },
});
`;
}
