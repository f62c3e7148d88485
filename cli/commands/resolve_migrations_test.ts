/**
 * Two branches each add a migration under the next number (0002), merged in a real git
 * repository: `kit resolve` moves the one that came in on top and keeps the trunk's; a merge
 * committed without it fails `kit docs --check` and the project's `verify` with one line naming
 * both files and the command that moves the one merged last.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gitIn as git, initializedProject, kitIn as kit } from "./test_project.ts";

async function ok(dir: string, ...args: string[]): Promise<string> {
  const run = await kit(dir, ...args);
  assert.equal(run.result, 0, `kit ${args.join(" ")}: ${run.out}`);
  return run.out;
}

const migrations = (context: string) => `src/contexts/${context}/infrastructure/migrations`;
const persons = `${migrations("identity")}/0002-create-persons.ts`;
const messages = `${migrations("notifications")}/0002-create-messages.ts`;

/**
 * A project whose trunk has migration 0001 (scheduling), a branch `messages` adding
 * notifications' 0002 and a branch `persons` adding identity's 0002; `messages` merged first.
 */
async function twoBranches(): Promise<string> {
  const dir = await initializedProject(["--no-git"]);
  for (
    const args of [
      ["aggregate", "scheduling", "Appointment"],
      ["aggregate", "identity", "Person"],
      ["aggregate", "notifications", "Message"],
      ["repository", "scheduling", "Appointment"],
    ]
  ) await ok(dir, "generate", ...args);
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", ".");
  await git(dir, "commit", "-qm", "bootstrap");
  for (
    const [branch, context, aggregate] of [["persons", "identity", "Person"], [
      "messages",
      "notifications",
      "Message",
    ]]
  ) {
    await git(dir, "checkout", "-qb", branch!, "main");
    await ok(dir, "generate", "repository", context!, aggregate!);
    await git(dir, "add", ".");
    await git(dir, "commit", "-qm", `${context}: migration 0002`);
  }
  await git(dir, "checkout", "-q", "main");
  // Merged first: from here on the trunk's 0002 may run on staging, production...
  assert.equal((await git(dir, "merge", "-q", "--no-edit", "messages")).code, 0);
  return dir;
}

Deno.test({
  name:
    "kit resolve moves the migration that came in with the merge on top, the trunk's keeping its number, before git add",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await twoBranches();
    try {
      const merge = await git(dir, "merge", "--no-edit", "persons");
      assert.notEqual(merge.code, 0, "the migration list conflicts");
      assert.match(merge.out, /Merge conflict in src\/platform\/database\/migrations\.ts/);

      const resolved = await kit(dir, "resolve");
      assert.equal(resolved.result, 0, resolved.out);
      // identity's sorts first, yet it came in last: it moves, notifications' stays.
      assert.match(
        resolved.out,
        new RegExp(
          `^renumbered ${
            RegExp.escape(persons)
          } to 0003-create-persons\\.ts, on top of the migration list \\(${
            RegExp.escape(messages)
          } came first and keeps the number: it may have run on a shared database\\)$`,
          "m",
        ),
      );
      const moved = `${migrations("identity")}/0003-create-persons.ts`;
      assert.equal(existsSync(join(dir, persons)), false);
      const migration = await readFile(join(dir, moved), "utf8");
      assert.match(
        migration,
        /export const m0003IdentityCreatePersons: Migration = \{\n {2}version: 3,/,
      );
      assert.match(
        migration,
        /id: "identity\/create-persons"/,
        "its id, and so its ledger row, unchanged",
      );
      const list = await readFile(join(dir, "src/platform/database/migrations.ts"), "utf8");
      assert.deepEqual(
        [...list.matchAll(/^ {2}(m\d{4}\w+),$/gm)].map((m) => m[1]),
        [
          "m0001SchedulingCreateAppointments",
          "m0002NotificationsCreateMessages",
          "m0003IdentityCreatePersons",
        ],
      );
      assert.match(
        list,
        /import \{ m0003IdentityCreatePersons \} from "[^"]+\/0003-create-persons\.ts";/,
      );
      assert.doesNotMatch(list, /0002-create-persons|m0002Identity/);
      assert.equal((await kit(dir, "docs", "--check")).result, 0);

      // What it lists to stage is what the merge needs: the commit holds one migration 0002.
      const stage = /^review and stage: git add (.+)$/m.exec(resolved.out)?.[1]?.split(" ") ?? [];
      assert.ok(stage.includes(persons) && stage.includes(moved), resolved.out);
      assert.equal((await git(dir, "add", ...stage)).code, 0);
      const committed = await git(dir, "commit", "-q", "--no-edit");
      assert.equal(committed.code, 0, committed.out);
      assert.equal((await git(dir, "status", "--porcelain")).out, "");
      const tree = (await git(dir, "ls-files")).out.split("\n")
        .filter((path) => path.includes("/infrastructure/migrations/"));
      assert.deepEqual(tree.map((p) => p.split("/").pop()).sort(), [
        "0001-create-appointments.ts",
        "0002-create-messages.ts",
        "0003-create-persons.ts",
      ]);
      // The list compiles: every import names a file that is there.
      const check = await new Deno.Command(Deno.execPath(), {
        args: ["check", "--quiet", "src/platform/database/migrations.ts"],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a merge committed with two migrations 0002 fails docs --check and verify in one line naming both and 'kit resolve --renumber' of the one merged last, which settles it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await twoBranches();
    try {
      // Merged as a person might without kit: both sides of every conflict kept.
      await writeFile(join(dir, ".git/info/attributes"), "* merge=union\n");
      assert.equal((await git(dir, "merge", "-q", "--no-edit", "persons")).code, 0);
      await Deno.remove(join(dir, ".git/info/attributes"));

      const line =
        `error migrations/numbers-unique: migration 0002 is both ${messages} and ${persons}; keep the number of the one that may have run (on the trunk first) and move the other on top: kit resolve --renumber ${persons}`;
      const check = await kit(dir, "docs", "--check");
      assert.equal(check.result, 1);
      assert.equal(check.out, `kit: docs --check: 1 migration number(s) taken twice\n${line}`);
      const write = await kit(dir, "docs");
      assert.equal(write.result, 1, "kit docs says it too");
      assert.match(write.out, new RegExp(`^${RegExp.escape(line)}$`, "m"));

      // The project's verify starts with kit docs --check (verify_task_test.ts): it fails so too.
      // Renumbering a migration that shares its number with none is refused: it may have run.
      const lone = `${migrations("scheduling")}/0001-create-appointments.ts`;
      const refused = await kit(dir, "resolve", "--renumber", lone);
      assert.equal(refused.result, 1);
      assert.match(refused.out, /no other migration has number 1 .*keeps its number/);
      assert.equal(existsSync(join(dir, lone)), true);

      const renumbered = await kit(dir, "resolve", "--renumber", persons);
      assert.equal(renumbered.result, 0, renumbered.out);
      assert.match(
        renumbered.out,
        /^renumbered .*0002-create-persons\.ts to 0003-create-persons\.ts/m,
      );
      assert.equal((await kit(dir, "docs", "--check")).result, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a branch that merges the trunk in moves its own migration: the trunk's keeps its number, though it came in with the merge",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await twoBranches();
    try {
      await git(dir, "checkout", "-q", "persons");
      assert.notEqual((await git(dir, "merge", "--no-edit", "main")).code, 0);
      const resolved = await kit(dir, "resolve");
      assert.equal(resolved.result, 0, resolved.out);
      assert.match(
        resolved.out,
        new RegExp(
          `^renumbered ${RegExp.escape(persons)} to 0003-create-persons\\.ts, .*\\(${
            RegExp.escape(messages)
          } came first`,
          "m",
        ),
      );
      assert.equal(existsSync(join(dir, messages)), true);
      assert.equal((await kit(dir, "docs", "--check")).result, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
