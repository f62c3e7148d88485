/**
 * `kit generate background-job` in the builder style (`"declarations": "builder"` in
 * `kit.config.json`): the job class has no decorator, and the module file declares it with
 * `builder.backgroundJob(..)`. Its plan in memory (the module's data kept, jobs sorted in one
 * region, a hand-written builder function reused, the decorator style unchanged), and through
 * `kit`'s `main` in process: the project verifies and the generated spec passes.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError } from "../cli_error.ts";
import { kitIn, runProgram as run } from "../commands/test_project.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion } from "../files/marker_regions.ts";
import { withBuilderDeclaration } from "./builder_module.ts";
import { generated, planOf, planProject } from "./plan_fixture.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const s = "src/contexts/scheduling";
const modulePath = `${s}/scheduling.module.ts`;

async function useStyle(root: string, declarations: "builder" | "decorators"): Promise<void> {
  const path = join(root, "kit.config.json");
  const config = JSON.parse(await readFile(path, "utf8"));
  await writeFile(path, JSON.stringify({ ...config, declarations }, null, 2) + "\n");
}

function contents(plan: readonly FileWrite[], path: string): string {
  const write = plan.find((w) => w.path === path);
  assert.ok(write, `the plan writes ${path}`);
  return write.contents;
}

/** The paths a plan writes that it changes, derived files left out: `+` new, `~` changed. */
function written(root: string, plan: readonly FileWrite[]): string[] {
  return plan.filter((w) =>
    !/(\.declarations\.ts|\.dependencies\.ts|\/CONTEXT\.md|context-map\.md|\.cjs)$/.test(w.path) &&
    (!existsSync(join(root, w.path)) || readFileSync(join(root, w.path), "utf8") !== w.contents)
  ).map((w) => `${w.create ? "+" : "~"}${w.path}`).sort();
}

Deno.test("builder style: the job without a decorator, declared with builder.backgroundJob in the module", async () => {
  const root = await planProject();
  try {
    await useStyle(root, "builder");
    await generated(root, "command", ["scheduling", "CancelAppointment"]);
    const before = await readFile(join(root, modulePath), "utf8");
    const plan = await planOf(root, "background-job", ["scheduling", "ClearCalendar"], {
      command: "CancelAppointment",
    });
    assert.deepEqual(written(root, plan), [
      `+${s}/application/background/clear-calendar.job.ts`,
      `+${s}/application/background/clear-calendar.spec.ts`,
      `~${modulePath}`,
    ]);
    const job = contents(plan, `${s}/application/background/clear-calendar.job.ts`);
    assert.doesNotMatch(job, /@Background|@kit\/jobs/);
    assert.match(job, /^export class ClearCalendar \{$/m);
    assert.match(job, /static readonly jobName = "scheduling\.clear-calendar";/);
    const module = contents(plan, modulePath);
    // The command's handler, generated in the builder style too, is declared beside it.
    assert.deepEqual(readRegion(module, "builder-declarations", modulePath), [
      "builder.backgroundJob(ClearCalendar, { deps: [CommandBus] });",
      "builder.handler(CancelAppointment, CancelAppointmentHandler);",
    ]);
    assert.deepEqual(readRegion(module, "builder-imports", modulePath), [
      'import { CancelAppointment } from "./application/commands/cancel-appointment/cancel-appointment.command.ts";',
      'import { CancelAppointmentHandler } from "./application/commands/cancel-appointment/cancel-appointment.handler.ts";',
      'import { ClearCalendar } from "./application/background/clear-calendar.job.ts";',
      'import { CommandBus } from "@kit/kernel";',
    ]);
    // Listed with the context's background jobs, as a decorated one is; not in its barrel.
    assert.match(contents(plan, `${s}/CONTEXT.md`), /- Background jobs: ClearCalendar\n/);
    assert.doesNotMatch(contents(plan, `${s}/scheduling.declarations.ts`), /ClearCalendar/);
    // The module's data (its derived barrels) is kept: the builder function comes after it.
    const data = /defineModule\("scheduling", \{[^}]*\}/.exec(before)?.[0];
    assert.ok(data !== undefined && module.includes(`${data}, (builder) => {`), module);

    // A second job joins the region, sorted, whatever the order of generation.
    await generated(root, "background-job", ["scheduling", "ClearCalendar"], {
      command: "CancelAppointment",
    });
    const second = await planOf(root, "background-job", ["scheduling", "ArchiveLater"], {
      command: "CancelAppointment",
    });
    const both = contents(second, modulePath);
    assert.deepEqual(readRegion(both, "builder-declarations", modulePath), [
      "builder.backgroundJob(ArchiveLater, { deps: [CommandBus] });",
      "builder.backgroundJob(ClearCalendar, { deps: [CommandBus] });",
      "builder.handler(CancelAppointment, CancelAppointmentHandler);",
    ]);
    assert.equal(both.match(/defineModule\(/g)?.length, 1);
    assert.equal(both.match(/kit:begin builder-declarations/g)?.length, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("decorator style: the job is @Background() and the module file is not touched", async () => {
  const root = await planProject();
  try {
    await generated(root, "command", ["scheduling", "CancelAppointment"]);
    const plan = await planOf(root, "background-job", ["scheduling", "ClearCalendar"], {
      command: "CancelAppointment",
    });
    assert.deepEqual(written(root, plan), [
      `+${s}/application/background/clear-calendar.job.ts`,
      `+${s}/application/background/clear-calendar.spec.ts`,
    ]);
    const job = contents(plan, `${s}/application/background/clear-calendar.job.ts`);
    assert.match(job, /^@Background\(\)\nexport class ClearCalendar \{$/m);
    assert.match(job, /import \{ Background \} from "@kit\/jobs";/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the builder-style edit reuses a hand-written builder function and an import already there", () => {
  const byHand = `import { CommandBus, defineModule, type Module } from "@kit/kernel";
import { Archive } from "./application/background/archive.job.ts";

export const billingModule: Module = defineModule("billing", (b) => {
  b.backgroundJob(Archive, { deps: [CommandBus] });
});
`;
  const out = withBuilderDeclaration(byHand, "billing.module.ts", {
    imports: [
      'import { CommandBus } from "@kit/kernel";',
      'import { Remind } from "./application/background/remind.job.ts";',
    ],
    call: (b) => `${b}.backgroundJob(Remind, { deps: [CommandBus] });`,
  });
  assert.equal(
    out,
    `import { CommandBus, defineModule, type Module } from "@kit/kernel";
import { Archive } from "./application/background/archive.job.ts";
// kit:begin builder-imports
import { Remind } from "./application/background/remind.job.ts";
// kit:end

export const billingModule: Module = defineModule("billing", (b) => {
  b.backgroundJob(Archive, { deps: [CommandBus] });
  // kit:begin builder-declarations
  b.backgroundJob(Remind, { deps: [CommandBus] });
  // kit:end
});
`,
  );
  assert.throws(
    () =>
      withBuilderDeclaration(
        `export const m = defineModule("billing", (b) => b.declare(X));\n`,
        "billing.module.ts",
        { imports: [], call: (b) => `${b}.backgroundJob(Remind);` },
      ),
    (error: unknown) =>
      error instanceof CliError && /needs a named parameter and a block body/.test(error.message),
  );
  assert.throws(
    () =>
      withBuilderDeclaration("export const m = 1;\n", "billing.module.ts", {
        imports: [],
        call: (b) => `${b}.backgroundJob(Remind);`,
      }),
    (error: unknown) =>
      error instanceof CliError &&
      error.message ===
        "'billing.module.ts' has no 'export const ...Module = defineModule(...)': the builder style declares there",
  );
});

Deno.test({
  name:
    "kit generate background-job in a builder-style project: no decorator, the spec passes, verify is green",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const parent = await Deno.makeTempDir({ prefix: "kit-builder-job-" });
    const dir = join(parent, "clinic");
    const kit = async (...args: string[]) => {
      const { result, out } = await kitIn(dir, ...args);
      assert.equal(result, 0, `kit ${args.join(" ")}:\n${out}`);
    };
    try {
      const init = await kitIn(
        parent,
        ..."init clinic --context scheduling:core --link".split(" "),
        checkout,
      );
      assert.equal(init.result, 0, init.out);
      await useStyle(dir, "builder");
      await kit("generate", "command", "scheduling", "CancelAppointment");
      await kit(
        ..."generate background-job scheduling ClearCalendar --command CancelAppointment".split(
          " ",
        ),
      );
      const jobs = `${s}/application/background`;
      const job = await readFile(join(dir, `${jobs}/clear-calendar.job.ts`), "utf8");
      assert.doesNotMatch(job, /@\w+\(/, "no decorator in the generated job");
      assert.match(
        await readFile(join(dir, modulePath), "utf8"),
        /builder\.backgroundJob\(ClearCalendar, \{ deps: \[CommandBus\] \}\);/,
      );
      // verify type checks the whole project (`deno check .`): the spec then runs `--no-check`.
      const verify = await run(dir, Deno.execPath(), ["task", "verify"]);
      assert.equal(verify.code, 0, verify.out);
      const spec = await run(dir, Deno.execPath(), [
        "test",
        "-A",
        "--no-check",
        `${jobs}/clear-calendar.spec.ts`,
      ]);
      assert.equal(spec.code, 0, spec.out);
      assert.match(spec.out, /ClearCalendar enqueued by a user runs what is due .* \.\.\. ok/);
      assert.match(spec.out, /1 passed \| 0 failed/);
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});
