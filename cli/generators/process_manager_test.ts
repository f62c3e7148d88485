/**
 * `kit generate process-manager`, through `kit`'s `main` in process: a project, a context with
 * integration events, a process manager started by one, handling another, with a deadline. The
 * generated spec passes (it runs the deadline by moving the test clock; the plan itself is
 * tested in memory in planners_test.ts); refusals (an unknown event, an existing process manager, a bad name) write
 * nothing; `--local-only` refuses the first one (it composes the platform's process store) and
 * lets a second one through.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { kitIn, projectTree, runProgram as run } from "../commands/test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const processes = "src/contexts/scheduling/application/processes";

/** `kit <args>` run in process in `cwd`: its exit code and every line it printed. */
async function kit(cwd: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const { result, out } = await kitIn(cwd, ...args);
  return { code: result, out: `${out}\n` };
}

/** `kit <args>`; fails with its output unless it exits 0. */
async function kitOk(cwd: string, ...args: string[]): Promise<string> {
  const { code, out } = await kit(cwd, ...args);
  assert.equal(code, 0, `kit ${args.join(" ")}:\n${out}`);
  return out;
}

Deno.test({
  name:
    "kit generate process-manager: its spec green, the deadline run with the test clock; refusals write nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const parent = await Deno.makeTempDir({ prefix: "kit-process-manager-" });
    const dir = join(parent, "clinic");
    try {
      await kitOk(parent, "init", dir, "--context", "scheduling:core", "--link", checkout);
      for (const event of ["AppointmentBooked", "AppointmentConfirmed", "AppointmentCancelled"]) {
        await kitOk(dir, "generate", "integration-event", "scheduling", event);
      }
      // A scheduled job of the context: its first tick is due whenever the spec runs due jobs.
      await kitOk(dir, "generate", "command", "scheduling", "SweepHolds");
      await kitOk(
        dir,
        "generate",
        "job",
        "scheduling",
        "SweepHoldsHourly",
        "--every",
        "1h",
        "--command",
        "SweepHolds",
      );

      // Refusals, each naming what is wrong; not one file written.
      const before = await projectTree(dir);
      const refused = async (pattern: RegExp, ...args: string[]) => {
        const { code, out } = await kit(dir, "generate", "process-manager", "scheduling", ...args);
        assert.equal(code, 1, out);
        assert.match(out, pattern);
        assert.deepEqual(await projectTree(dir), before, `kit ${args.join(" ")} wrote nothing`);
      };
      await refused(
        /Unknown event 'AppointmentBoked': did you mean 'AppointmentBooked'\?/,
        "Confirmation",
        "--starts-on",
        "AppointmentBoked",
      );
      await refused(
        /Unknown event 'AppointmentConfirmd': did you mean 'AppointmentConfirmed'/,
        "Confirmation",
        "--starts-on",
        "AppointmentBooked",
        "--handles",
        "AppointmentConfirmd",
      );
      await refused(
        /Invalid process manager name/,
        "confirmation",
        "--starts-on",
        "AppointmentBooked",
      );
      await refused(
        /Invalid deadline name 'Remind'/,
        "Confirmation",
        "--starts-on",
        "AppointmentBooked",
        "--deadline",
        "Remind",
      );
      await refused(/needs --starts-on <Event>/, "Confirmation");
      // The platform has no process store yet: composing one writes shared files.
      await refused(
        /would write 2 shared file\(s\): src\/platform\/compose-application\.ts, src\/platform\/database\/migrate\.ts; nothing was written/,
        "Confirmation",
        "--starts-on",
        "AppointmentBooked",
        "--local-only",
      );

      const wrote = await kitOk(
        dir,
        "generate",
        "process-manager",
        "scheduling",
        "AppointmentConfirmation",
        "--starts-on",
        "AppointmentBooked",
        "--handles",
        "AppointmentConfirmed",
        "--deadline",
        "remind",
      );
      for (
        const path of [
          `${processes}/appointment-confirmation.process.ts`,
          `${processes}/appointment-confirmation.process.spec.ts`,
          "src/contexts/scheduling/infrastructure/process-store.ts",
          "src/contexts/scheduling/scheduling.declarations.ts",
          "src/platform/compose-application.ts",
          "src/platform/database/migrate.ts",
        ]
      ) assert.match(wrote, new RegExp(`wrote ${path}\n`));
      assert.match(
        await readFile(join(dir, "src/platform/database/migrate.ts"), "utf8"),
        /await migrateProcesses\(sql, \{ schema: "scheduling" \}\);/,
      );
      assert.match(
        await readFile(join(dir, "src/contexts/scheduling/scheduling.declarations.ts"), "utf8"),
        /AppointmentConfirmation,/,
      );

      // A second one: the store is composed already, so it stays in its context.
      const second = await kitOk(
        dir,
        "generate",
        "process-manager",
        "scheduling",
        "CancellationFollowUp",
        "--starts-on",
        "AppointmentCancelled",
        "--local-only",
      );
      assert.doesNotMatch(second, /wrote src\/platform/);

      const existing = await projectTree(dir);
      const again = await kit(
        dir,
        "generate",
        "process-manager",
        "scheduling",
        "AppointmentConfirmation",
        "--starts-on",
        "AppointmentBooked",
      );
      assert.equal(again.code, 1, again.out);
      assert.match(again.out, /Process manager 'AppointmentConfirmation' exists already/);
      assert.deepEqual(await projectTree(dir), existing);

      const spec = await run(dir, Deno.execPath(), [
        "test",
        "-A",
        `${processes}/appointment-confirmation.process.spec.ts`,
        `${processes}/cancellation-follow-up.process.spec.ts`,
      ]);
      assert.equal(spec.code, 0, spec.out);
      assert.match(spec.out, /runs its deadlines with the test clock \.\.\. ok/);
      assert.match(spec.out, /2 passed \| 0 failed/);
      // The spec runs the deadline: moving the clock and running the jobs then due.
      const specText = await readFile(
        join(dir, `${processes}/appointment-confirmation.process.spec.ts`),
        "utf8",
      );
      assert.match(specText, /clock\.set\(/);
      assert.match(specText, /backgroundJobs\.runDue\(\)/);
      assert.match(specText, /"completed"/);
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});
