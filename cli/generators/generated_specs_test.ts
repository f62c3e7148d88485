import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { initializedProject, quietly, runIn } from "../commands/test_project.ts";

async function generate(dir: string, ...args: string[]): Promise<void> {
  const run = await quietly(() => main(["generate", ...args], dir));
  assert.equal(run.result, 0, `${args.join(" ")}: ${run.stderr.join(" ")}`);
}

async function edit(dir: string, path: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(join(dir, path), "utf8");
  assert.match(text, typeof from === "string" ? new RegExp(RegExp.escape(from)) : from, path);
  await writeFile(join(dir, path), text.replace(from, to));
}

/** The spec files of the scheduling context that run in memory. */
async function specFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(folder: string): Promise<void> {
    for await (const entry of Deno.readDir(join(dir, folder))) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".spec.ts") && !path.endsWith(".repository.spec.ts")) {
        found.push(path); // the PostgreSQL repository's spec aside: it needs a database
      }
    }
  }
  await walk("src/contexts/scheduling");
  return found.sort();
}

/** `deno test` of the scheduling context's specs: their output, and whether they all passed. */
async function specs(dir: string): Promise<{ passed: boolean; output: string }> {
  const files = await specFiles(dir);
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", ...files],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
  return { passed: run.success, output };
}

const commands = "src/contexts/scheduling/application/commands";
const tests = {
  noPermission: "Ping needs no permission: an actor with no role runs it",
  queryNoPermission: "FindSlots needs no permission: an actor with no role runs it",
  aggregateNoPermission: "MoveAppointment needs no permission: an actor with no role runs it",
  job: "PingLater enqueued by a user runs what is due as that user, in their tenant",
  adapter: "the scheduling context is given CalendarAdapter where it asks for Calendar",
  scheduled: "SweepHourly runs once per tick of 1h",
  errors: "the scheduling context's error codes answer the statuses its clients were told",
};

Deno.test({
  name:
    "generated specs assert what their names say: each passes as generated and fails when the behaviour it names is broken",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject();
    try {
      await generate(dir, "command", "scheduling", "Ping");
      await generate(dir, "command", "scheduling", "SendReminder", "--permission", "reminder.send");
      await generate(dir, "query", "scheduling", "FindSlots");
      await generate(dir, "aggregate", "scheduling", "Appointment");
      await generate(dir, "command", "scheduling", "MoveAppointment", "--aggregate", "Appointment");
      await generate(dir, "background-job", "scheduling", "PingLater", "--command", "Ping");
      await generate(dir, "command", "scheduling", "Sweep");
      await generate(
        dir,
        "job",
        "scheduling",
        "SweepHourly",
        "--every",
        "1h",
        "--command",
        "Sweep",
      );
      await generate(dir, "error-code", "scheduling", "SLOT_TAKEN", "--status", "409");
      await generate(dir, "port", "scheduling", "Calendar");
      await generate(dir, "adapter", "scheduling", "Calendar");
      await runIn(dir, Deno.execPath(), ["lint", "src/contexts/scheduling"]);

      const generated = await specs(dir);
      assert.ok(generated.passed, generated.output);
      for (const name of Object.values(tests)) {
        assert.match(generated.output, new RegExp(`${RegExp.escape(name)} \\.\\.\\. ok`));
      }

      // Ping comes to need a permission; PingLater sends Ping as the system, not as its user;
      // the platform provides Calendar with something else than CalendarAdapter.
      await edit(
        dir,
        `${commands}/ping/ping.command.ts`,
        'import { type Actor, Command } from "@kit/kernel";',
        'import { type Actor, AuthorizedCommand as Command, Requires } from "@kit/kernel";\n' +
          'import { schedulingPermissions } from "../../../scheduling.permissions.ts";',
      );
      await edit(
        dir,
        `${commands}/ping/ping.command.ts`,
        "export class Ping",
        '@Requires(schedulingPermissions["reminder.send"])\nexport class Ping',
      );
      await edit(
        dir,
        "src/contexts/scheduling/application/background/ping-later.job.ts",
        "new Ping(execution.actor)",
        "new Ping(systemActor)",
      );
      await edit(
        dir,
        "src/contexts/scheduling/application/background/ping-later.job.ts",
        'import type { BackgroundJobExecution, CommandBus } from "@kit/kernel";',
        'import { type BackgroundJobExecution, type CommandBus, systemActor } from "@kit/kernel";',
      );
      await edit(
        dir,
        "src/contexts/scheduling/infrastructure/calendar.adapter.ts",
        /useFactory: \(\): Calendar => new CalendarAdapter\(\)/,
        "useFactory: (): Calendar => ({})",
      );
      // SweepHourly comes to tick every 2h; SLOT_TAKEN is given another status than its clients
      // were told.
      await edit(
        dir,
        "src/contexts/scheduling/application/background/sweep-hourly.job.ts",
        '@Scheduled({ every: "1h" })',
        '@Scheduled({ every: "2h" })',
      );
      await edit(
        dir,
        "src/contexts/scheduling/domain/scheduling-errors.ts",
        /SLOT_TAKEN: \{\s*status: 409/,
        "SLOT_TAKEN: { status: 422",
      );
      const broken = await specs(dir);
      assert.equal(broken.passed, false, broken.output);
      for (
        const name of [tests.noPermission, tests.job, tests.adapter, tests.scheduled, tests.errors]
      ) {
        assert.match(broken.output, new RegExp(`${RegExp.escape(name)} \\.\\.\\. FAILED`));
      }
      assert.match(
        broken.output,
        /"actor":"system"/,
        "the job's spec names the actor the command had",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
