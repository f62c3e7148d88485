/**
 * `kit generate process-manager` on each ORM's project, planned without a subprocess: the first
 * process manager composes the process store of the project's ORM (`DrizzleProcessStore`,
 * `KnexProcessStore`) among the ORM's repositories, built on the ORM's database, so that an
 * instance's state is written in the command's ORM transaction; a project on postgres.js keeps
 * `PostgresProcessStore` among its PostgreSQL repositories. Every project migrates the process
 * tables with `migrateProcesses` in `migrate.ts`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { applyPlan } from "../files/file_plan.ts";
import { readRegion } from "../files/marker_regions.ts";
import { projectFiles } from "../commands/init.ts";
import { withDerived } from "../commands/docs.ts";
import type { Orm } from "../project/kit_config.ts";
import { contents, generated, planConfig, planOf, written } from "./plan_fixture.ts";

const s = "src/contexts/scheduling";
const composePath = "src/platform/compose-application.ts";

/** A new project on the ORM, laid out as `kit init --orm <orm>` does, in a temporary directory. */
async function ormProject(orm: Orm): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: `kit-plan-${orm}-` });
  const config = orm === "postgres" ? planConfig : { ...planConfig, orm };
  await applyPlan(root, await withDerived(root, config, projectFiles(config, [], ["deno"])));
  return root;
}

/** What each project's first process manager composes. */
const expected = {
  postgres: {
    store: 'new PostgresProcessStore(sql, { schema: "scheduling" })',
    region: "postgres-repositories",
    other: "orm-repositories",
    entry: "schedulingProcessStoreOnPostgres,",
  },
  drizzle: {
    store: 'new DrizzleProcessStore(db, { schema: "scheduling" })',
    region: "orm-repositories",
    other: "postgres-repositories",
    entry: "schedulingProcessStoreOnDrizzle,",
  },
  knex: {
    store: 'new KnexProcessStore(db, { schema: "scheduling" })',
    region: "orm-repositories",
    other: "postgres-repositories",
    entry: "schedulingProcessStoreOnKnex,",
  },
} as const;

for (const orm of ["postgres", "drizzle", "knex"] as const) {
  Deno.test(`process-manager on ${orm}: the first one composes the ${orm} process store, migrated`, async () => {
    const root = await ormProject(orm);
    try {
      await generated(root, "integration-event", ["scheduling", "AppointmentBooked"]);
      const plan = await planOf(
        root,
        "process-manager",
        ["scheduling", "AppointmentConfirmation"],
        {
          "starts-on": "AppointmentBooked",
          deadline: ["remind"],
        },
      );
      assert.deepEqual(written(root, plan), [
        `+${s}/application/processes/appointment-confirmation.process.spec.ts`,
        `+${s}/application/processes/appointment-confirmation.process.ts`,
        `+${s}/infrastructure/process-store.ts`,
        `~${composePath}`,
        "~src/platform/database/migrate.ts",
      ]);
      const store = contents(plan, `${s}/infrastructure/process-store.ts`);
      assert.ok(store.includes(expected[orm].store), store);
      assert.deepEqual(
        (store.match(/new \w+ProcessStore\(/g) ?? []).sort(),
        ["new InMemoryProcessStore(", `${expected[orm].store.split("(")[0]}(`].sort(),
        "the store in memory and the project's store, no other",
      );
      const compose = contents(plan, composePath);
      assert.deepEqual(readRegion(compose, "memory-repositories", composePath), [
        "schedulingProcessStore,",
      ]);
      assert.deepEqual(readRegion(compose, expected[orm].region, composePath), [
        expected[orm].entry,
      ]);
      if (orm !== "postgres") {
        assert.deepEqual(readRegion(compose, expected[orm].other, composePath), []);
      } else {
        assert.ok(!compose.includes("orm-repositories"), "no ORM's region on postgres.js");
      }
      assert.ok(
        readRegion(compose, "provider-imports", composePath).includes(
          `import { schedulingProcessStore, ${
            expected[orm].entry.slice(0, -1)
          } } from "../contexts/scheduling/infrastructure/process-store.ts";`,
        ),
      );
      assert.match(
        contents(plan, "src/platform/database/migrate.ts"),
        /await migrateProcesses\(sql, \{ schema: "scheduling" \}\);/,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}
