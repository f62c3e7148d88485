/**
 * A process manager in a project on each ORM (`kit init --orm drizzle`, `--orm knex`), through the
 * real executable: the first `kit generate process-manager` composes the ORM's process store, and
 * on PostgreSQL (the platform's environment, migrated by `readEnvironment`) the platform resolves
 * that store; a starting event delivered by the relay starts an instance in the context's schema,
 * its deadline job enqueued in the same ORM transaction; a transition whose transaction rolls back
 * leaves neither. The generated spec passes too.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "../commands/served_project.ts";
import { kitExecutable, runIn } from "../commands/test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const databaseUrl = Deno.env.get("DATABASE_URL");

/** `kit <args>` as `deno install -g -n kit` runs it; fails with its output unless it exits 0. */
function kit(cwd: string, ...args: string[]): Promise<string> {
  return runIn(cwd, Deno.execPath(), [...kitExecutable, ...args]);
}

/** The spec this test writes in the project: the platform on PostgreSQL, through its ORM. */
function platformSpec(store: string, from: string): string {
  return `import assert from "node:assert/strict";
import { consoleLogger, runInScope, systemActor, TransactionManager } from "@kit/kernel";
import { ProcessStore } from "@kit/kernel/process";
import { TestClock } from "@kit/kernel/testing";
import { ${store} } from "${from}";
import { composePlatform } from "../src/platform/compose-application.ts";
import { readConfig } from "../src/platform/config.ts";
import { readEnvironment } from "../src/platform/platform-environment.ts";
import { AppointmentBooked } from "../src/contexts/scheduling/published-language/appointment-booked.event.ts";

Deno.test({
  name: "the platform on PostgreSQL keeps its process instances with ${store}, in the ORM's transaction",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const environment = await readEnvironment(
      readConfig({ DATABASE_URL: Deno.env.get("DATABASE_URL") }),
      consoleLogger({ level: "error" }),
    );
    const sql = environment.options.sql!;
    try {
      const clock = new TestClock(new Date("2026-01-05T09:00:00.000Z"));
      const application = composePlatform({ ...environment.options, clock });
      const store = application.resolve(ProcessStore);
      assert.ok(store instanceof ${store}, store.constructor.name);
      const transactions = application.resolve(TransactionManager);
      const execution = { origin: "test", actor: systemActor, tenantId: "t1", correlationId: "spec" };
      const publish = (id: string) =>
        transactions.run((unitOfWork) =>
          runInScope({ execution, unitOfWork }, () =>
            application.events.publisher.publish(AppointmentBooked, { id })
          )
        );
      const instances = async () =>
        (await sql\`select key, status, version from scheduling.kit_process_instances order by key\`)
          .map((row) => \`\${row.key} \${row.status} \${row.version}\`);
      const jobs = async () =>
        (await sql\`select name from scheduling.background_jobs order by name\`).map((row) => row.name);

      await publish("a1");
      assert.equal(await application.events.relay.deliverDue(), 1);
      assert.deepEqual(await instances(), ["a1 active 1"]);
      assert.deepEqual(await jobs(), ["scheduling.appointment-confirmation-deadline"]);

      // A transition whose transaction fails at its end: its instance and its job are undone.
      await sql\`create function scheduling.refuse() returns trigger language plpgsql as
        $$ begin raise exception 'refused by the test'; end $$\`;
      await sql\`create constraint trigger refuse after insert on scheduling.kit_process_messages
        deferrable initially deferred for each row execute function scheduling.refuse()\`;
      await publish("a2");
      assert.equal(await application.events.relay.deliverDue(), 0);
      assert.deepEqual(await instances(), ["a1 active 1"], "no instance of the rolled-back transition");
      assert.deepEqual(await jobs(), ["scheduling.appointment-confirmation-deadline"], "nor its job");
      // Its delivery is retried: the transition runs again, and commits this time.
      await sql\`drop trigger refuse on scheduling.kit_process_messages\`;
      clock.advance(3_600_000);
      assert.equal(await application.events.relay.deliverDue(), 1);
      assert.deepEqual(await instances(), ["a1 active 1", "a2 active 1"]);
      assert.equal((await jobs()).length, 2);
    } finally {
      await environment.close();
    }
  },
});
`;
}

const expected = {
  drizzle: { store: "DrizzleProcessStore", from: "@kit/drizzle", registered: "OnDrizzle" },
  knex: { store: "KnexProcessStore", from: "@kit/knex", registered: "OnKnex" },
} as const;

for (const orm of ["drizzle", "knex"] as const) {
  Deno.test({
    name:
      `kit init --orm ${orm}: a process manager keeps its instances with the ORM's store, in the command's ORM transaction`,
    ignore: databaseUrl === undefined,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const parent = await Deno.makeTempDir({ prefix: `kit-orm-process-${orm}-` });
      const dir = join(parent, "clinic");
      const database = await createTestDatabase(databaseUrl!);
      try {
        await kit(
          parent,
          ..."init clinic --context scheduling:core --no-git --orm".split(" "),
          orm,
          "--link",
          checkout,
        );
        for (const event of ["AppointmentBooked", "AppointmentConfirmed"]) {
          await kit(dir, "generate", "integration-event", "scheduling", event);
        }
        await kit(
          dir,
          ..."generate process-manager scheduling AppointmentConfirmation --starts-on AppointmentBooked --handles AppointmentConfirmed --deadline remind"
            .split(" "),
        );
        const { store, from, registered } = expected[orm];
        const storeFile = await readFile(
          join(dir, "src/contexts/scheduling/infrastructure/process-store.ts"),
          "utf8",
        );
        assert.match(storeFile, new RegExp(`new ${store}\\(db, \\{ schema: "scheduling" \\}\\)`));
        assert.doesNotMatch(storeFile, /PostgresProcessStore/);
        const compose = await readFile(join(dir, "src/platform/compose-application.ts"), "utf8");
        assert.match(compose, new RegExp(`schedulingProcessStore${registered},`));
        await writeFile(join(dir, "test/process-store-on-orm.spec.ts"), platformSpec(store, from));
        const specs = await runIn(dir, Deno.execPath(), [
          "test",
          "-A",
          "test/process-store-on-orm.spec.ts",
          "src/contexts/scheduling/application/processes/appointment-confirmation.process.spec.ts",
        ], { DATABASE_URL: database.url });
        assert.match(specs, /2 passed \| 0 failed/);
        assert.match(specs, new RegExp(`with ${store}, in the ORM's transaction \\.\\.\\. ok`));
      } finally {
        await database.drop();
        await Deno.remove(parent, { recursive: true });
      }
    },
  });
}
