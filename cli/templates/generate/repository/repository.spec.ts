import assert from "node:assert/strict";
import postgres from "postgres";
import {
  type ExecutionContext,
  isRefusal,
  runInScope,
  systemActor,
  userActor,
} from "@kit/kernel";
import { migrateDatabase } from "../../../platform/database/migrations.ts";
import { $build$ } from "../domain/$kebab$.builder.ts";
import type { $port$ } from "../application/ports/$kebab$-repository.ts";
import { InMemory$port$ } from "./$kebab$.memory-repository.ts";
$storeImports$
function within<T>(execution: ExecutionContext, work: () => Promise<T>): Promise<T> {
  return runInScope({ execution }, work);
}

/** Runs `work` as a user of the tenant given, for that tenant. */
function inTenant<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
  const actor = userActor(`user-of-${tenantId}`, { tenants: [tenantId] });
  return within({ origin: "test", actor, tenantId, correlationId: "spec" }, work);
}

/** Runs `work` as a user of two tenants who names neither: it reaches no tenant. */
function withoutTenant<T>(work: () => Promise<T>): Promise<T> {
  const actor = userActor("user-of-two", { tenants: ["t1", "t2"] });
  return within({ origin: "test", actor, correlationId: "spec" }, work);
}

/** Runs `work` as the system actor, which reaches every tenant. */
function asSystem<T>(work: () => Promise<T>): Promise<T> {
  return within({ origin: "test", actor: systemActor, correlationId: "spec" }, work);
}

const refusal = (code: string) => (error: unknown) => isRefusal(error, code);

/** What every $port$ guarantees, whatever keeps it. */
const contract: Record<string, (repository: $port$) => Promise<void>> = {
  "keeps and finds each $name$ added, at its version": async (repository) => {
    const id = crypto.randomUUID();
    assert.equal(await inTenant("t1", () => repository.get(id)), undefined);
    assert.equal(await inTenant("t1", () => repository.add($build$(id))), 1);
    const loaded = await inTenant("t1", () => repository.get(id));
    assert.ok(loaded, "found in its tenant");
    assert.deepEqual(loaded.state.snapshot(), $build$(id).snapshot());
    assert.equal(loaded.version, 1);
    assert.equal(await inTenant("t1", () => repository.save(loaded.state, loaded.version)), 2);
    assert.equal((await inTenant("t1", () => repository.get(id)))?.version, 2);
  },
  "keeps tenants apart: each tenant's $name$ of one id is its own, the other's never found nor saved": async (
    repository,
  ) => {
    const id = crypto.randomUUID();
    await inTenant("t1", () => repository.add($build$(id)));
    assert.equal(await inTenant("t2", () => repository.get(id)), undefined);
    await assert.rejects(
      inTenant("t2", () => repository.save($build$(id), 1)),
      refusal("CONCURRENT_UPDATE"),
    );
    assert.equal(await inTenant("t2", () => repository.add($build$(id))), 1, "t2 names its own");
    // Work reaching both (the system's) finds and saves one row: the first tenant's, t1's.
    const reached = await asSystem(() => repository.get(id));
    assert.ok(reached, "the system reaches all");
    assert.equal(await asSystem(() => repository.save(reached.state, reached.version)), 2);
    assert.equal((await inTenant("t1", () => repository.get(id)))?.version, 2);
    assert.equal((await inTenant("t2", () => repository.get(id)))?.version, 1, "t2's stands");
    assert.equal(await inTenant("t2", () => repository.save($build$(id), 1)), 2);
  },
  "refuses an id its tenant keeps already ($exists$), and keeps the first": async (repository) => {
    const id = crypto.randomUUID();
    await inTenant("t1", () => repository.add($build$(id)));
    await inTenant("t1", () => repository.save($build$(id), 1));
    await assert.rejects(inTenant("t1", () => repository.add($build$(id))), refusal("$exists$"));
    assert.equal((await inTenant("t1", () => repository.get(id)))?.version, 2, "the first stands");
  },
  "refuses work without a tenant (TENANT_REQUIRED): no $name$ is written without one": async (
    repository,
  ) => {
    const id = crypto.randomUUID();
    await assert.rejects(
      withoutTenant(() => repository.add($build$(id))),
      refusal("TENANT_REQUIRED"),
    );
    await assert.rejects(
      asSystem(() => repository.add($build$(id))),
      refusal("TENANT_REQUIRED"),
    );
    await assert.rejects(withoutTenant(() => repository.get(id)), refusal("TENANT_REQUIRED"));
    assert.equal(await asSystem(() => repository.get(id)), undefined);
  },
  "refuses a stale save (CONCURRENT_UPDATE) and keeps the newer one": async (repository) => {
    const id = crypto.randomUUID();
    await inTenant("t1", () => repository.add($build$(id)));
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
  "lists a tenant's $name$s by id, a page at a time, and none of another tenant's": async (
    repository,
  ) => {
    const tenant = `t-${crypto.randomUUID()}`;
    const ids = ["c", "a", "b"].map((letter) => `${letter}-${crypto.randomUUID()}`);
    for (const id of ids) await inTenant(tenant, () => repository.add($build$(id)));
    await inTenant("t-other", () => repository.add($build$(crypto.randomUUID())));
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
  Deno.test(`InMemory$port$ ${guarantee}`, () => check(new InMemory$port$()));
}

/** Runs `work` on a migrated database of its own on the server of `server`, dropped after. */
async function onOwnDatabase(
  server: string,
  work: (sql: postgres.Sql, url: string) => Promise<void>,
): Promise<void> {
  const name = `spec_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const sql = postgres(url.href, { onnotice: () => {} });
  try {
    await migrateDatabase(sql);
    await work(sql, url.href);
  } finally {
    await sql.end();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const server = Deno.env.get("DATABASE_URL");
Deno.test({
  name: "$store$$port$ on a database of its own (needs DATABASE_URL)",
  ignore: server === undefined,
  async fn(t) {
$onDatabase$  },
});
