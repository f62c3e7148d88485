/**
 * The parallel workflow on Drizzle (`kit init --orm drizzle`): `generate repository` writes shared
 * files (refused with `--local-only`, naming the schema registry among them), and two branches each
 * adding a repository, merged in a real git repository, are settled by `kit resolve`: the migration
 * that came in moved on top, both sides' tables kept in the schema registry and both registrations
 * on the ORM kept in the composition.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readRegion } from "../files/marker_regions.ts";
import { gitIn as git, initializedProject, kitIn as kit } from "./test_project.ts";

async function ok(dir: string, ...args: string[]): Promise<string> {
  const run = await kit(dir, ...args);
  assert.equal(run.result, 0, `kit ${args.join(" ")}: ${run.out}`);
  return run.out;
}

Deno.test({
  name:
    "on Drizzle, two branches' repositories merged: kit resolve keeps both tables in the schema registry and both registrations, and renumbers the migration",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--no-git", "--orm", "drizzle"]);
    try {
      for (
        const args of [
          ["aggregate", "scheduling", "Appointment"],
          ["aggregate", "identity", "Person"],
          ["aggregate", "notifications", "Message"],
          ["repository", "scheduling", "Appointment"],
        ]
      ) await ok(dir, "generate", ...args);
      // A worker's run on its context only: the repository writes shared files, the registry too.
      const local = await kit(dir, "generate", "repository", "identity", "Person", "--local-only");
      assert.notEqual(local.result, 0);
      assert.match(local.out, /src\/platform\/database\/schema\.ts/);
      assert.match(local.out, /src\/platform\/compose-application\.ts/);

      await git(dir, "init", "-q", "-b", "main");
      await git(dir, "add", ".");
      await git(dir, "commit", "-qm", "bootstrap");
      for (
        const [branch, context, aggregate] of [
          ["persons", "identity", "Person"],
          ["messages", "notifications", "Message"],
        ]
      ) {
        await git(dir, "checkout", "-qb", branch!, "main");
        await ok(dir, "generate", "repository", context!, aggregate!);
        await git(dir, "add", ".");
        await git(dir, "commit", "-qm", `${context}: its repository`);
      }
      await git(dir, "checkout", "-q", "main");
      assert.equal((await git(dir, "merge", "-q", "--no-edit", "messages")).code, 0);
      const merge = await git(dir, "merge", "--no-edit", "persons");
      assert.notEqual(merge.code, 0, "the shared files conflict");
      assert.match(merge.out, /Merge conflict in src\/platform\/database\/schema\.ts/);

      const resolved = await kit(dir, "resolve");
      assert.equal(resolved.result, 0, resolved.out);
      assert.match(resolved.out, /renumbered .*0002-create-persons\.ts to 0003-create-persons\.ts/);
      const registry = await readFile(join(dir, "src/platform/database/schema.ts"), "utf8");
      assert.deepEqual(readRegion(registry, "tables", ""), [
        'export { appointments as schedulingAppointments } from "../../contexts/scheduling/infrastructure/appointment.table.ts";',
        'export { messages as notificationsMessages } from "../../contexts/notifications/infrastructure/message.table.ts";',
        'export { persons as identityPersons } from "../../contexts/identity/infrastructure/person.table.ts";',
      ]);
      const compose = await readFile(join(dir, "src/platform/compose-application.ts"), "utf8");
      assert.deepEqual(readRegion(compose, "orm-repositories", ""), [
        "identityPersonRepositoryOnDrizzle,",
        "notificationsMessageRepositoryOnDrizzle,",
        "schedulingAppointmentRepositoryOnDrizzle,",
      ]);
      assert.doesNotMatch(registry + compose, /^(<{7}|>{7}|={7})/m);
      assert.equal((await kit(dir, "docs", "--check")).result, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
