/**
 * A project made before ids per tenant: `kit docs --check` names its table keyed by id alone and
 * the command that re-keys it; `kit generate rekey` writes that migration (the SQL of
 * docs/operations/ids-per-tenant.md, which cli/tests/ids_per_tenant_upgrade_test.ts runs on
 * PostgreSQL) and the check passes; the migration runs on PostgreSQL after the old one.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "../commands/served_project.ts";
import { initializedProject, keyedByIdAlone, kitIn as kit } from "../commands/test_project.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");
const page = fileURLToPath(new URL("../../docs/operations/ids-per-tenant.md", import.meta.url));
const migrations = "src/contexts/scheduling/infrastructure/migrations";

/** The SQL of a migration module (its `sql` template). */
function sqlOf(module: string): string {
  const sql = /sql: `([\s\S]*?)`,/.exec(module)?.[1];
  assert.ok(sql, module);
  return sql;
}

Deno.test({
  name:
    "a table keyed by id alone fails docs --check naming kit generate rekey, which writes the re-keying migration",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--no-git"]);
    const database = databaseUrl === undefined ? undefined : await createTestDatabase(databaseUrl);
    try {
      for (const args of ["aggregate scheduling Slot", "repository scheduling Slot"]) {
        const run = await kit(dir, "generate", ...args.split(" "));
        assert.equal(run.result, 0, `${args}: ${run.out}`);
      }
      // Keyed per tenant as generated now: nothing to re-key.
      assert.equal((await kit(dir, "docs", "--check")).result, 0);
      const none = await kit(dir, ..."generate rekey scheduling Slot".split(" "));
      assert.equal(none.result, 1);
      assert.match(none.out, /keyed by \(tenant_id, id\) already/);

      // The migration as kit generated it before ids per tenant.
      const create = `${migrations}/0001-create-slots.ts`;
      const before = await keyedByIdAlone(dir, create, "scheduling", "slots");
      const check = await kit(dir, "docs", "--check");
      assert.equal(check.result, 1);
      assert.match(
        check.out,
        /error tables\/ids-per-tenant: scheduling\.slots \(src\/contexts\/scheduling\/infrastructure\/migrations\/0001-create-slots\.ts\) is keyed by id alone.*kit generate rekey scheduling Slot writes the migration/,
      );

      const rekeyed = await kit(dir, ..."generate rekey scheduling Slot".split(" "));
      assert.equal(rekeyed.result, 0, rekeyed.out);
      const migration = await readFile(join(dir, `${migrations}/0002-rekey-slots.ts`), "utf8");
      assert.match(migration, /version: 2,\n\s*id: "scheduling\/rekey-slots",/);
      const list = await readFile(join(dir, "src/platform/database/migrations.ts"), "utf8");
      assert.ok(
        list.indexOf("m0001SchedulingCreateSlots,") < list.indexOf("m0002SchedulingRekeySlots,"),
        list,
      );
      assert.equal((await kit(dir, "docs", "--check")).result, 0, "re-keyed: the check passes");
      // Its SQL is the page's, for this table.
      const text = await readFile(page, "utf8");
      const documented = /```sql\n([\s\S]*?)```/.exec(
        text.slice(text.indexOf("## Projects generated before")),
      )![1]!.split("\n").map((line) => line.trim()).join("\n")
        .replaceAll("<schema>", "scheduling").replaceAll("<aggregates>", "slots");
      assert.equal(sqlOf(migration).trim(), documented.trim());
      // Once written, a second run has nothing left to re-key.
      const again = await kit(dir, ..."generate rekey scheduling Slot".split(" "));
      assert.equal(again.result, 1);

      if (database !== undefined) {
        // The old migration, rows of two tenants, then the new one, as the project runs them.
        await database.sql.unsafe(sqlOf(before));
        await database.sql`insert into scheduling.slots (id, tenant_id, version)
          values ('s1', 't1', 1), ('s2', 't2', 1)`;
        await database.sql.begin((tx) => tx.unsafe(sqlOf(migration)));
        await database.sql`insert into scheduling.slots (id, tenant_id, version)
          values ('s1', 't2', 1)`;
        assert.equal((await database.sql`select 1 from scheduling.slots`).length, 3);
      }
    } finally {
      await database?.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
