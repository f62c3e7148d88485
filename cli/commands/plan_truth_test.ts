/**
 * One source of truth for shared files: for every kind, what its plan really changes outside its
 * context in a fresh project is what `kit generate --help --json` says, what `--local-only`
 * refuses, what the worker's briefing allows and what the pre-tool-use hook refuses.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { type GeneratorKind, namesFile, sharedFilesGiven } from "../generators/catalog.ts";
import { decidePreToolUse } from "../hook/pre_tool_use.ts";
import { initializedProject, projectTree, quietly } from "./test_project.ts";
import { allowedGenerators } from "./worker_scope.ts";

/** One run of a generator in the sequence, and whether the case its options name holds. */
interface Step {
  /** What follows `kit generate`. */
  readonly args: readonly string[];
  /**
   * Whether the project's state makes every case of the writes announced for these options happen
   * (`--role` naming a role not granted yet, the first policy): then the hook's reading of the
   * command line is exact. False for the runs that show a case not holding.
   */
  readonly holds: boolean;
  /** What the project's state needs before the run, beyond the steps before it. */
  readonly before?: (dir: string) => Promise<void>;
}

/** Every kind, in an order that makes each one's prerequisites; conditional kinds both ways. */
const steps: readonly Step[] = [
  { args: ["context", "billing"], holds: true },
  { args: ["aggregate", "scheduling", "Appointment"], holds: true },
  { args: ["port", "scheduling", "Calendars"], holds: true },
  { args: ["adapter", "scheduling", "Calendars"], holds: true },
  { args: ["command", "scheduling", "BookAppointment"], holds: true },
  {
    args: ["command", "scheduling", "CancelAppointment", "--aggregate", "Appointment"],
    holds: true,
  },
  {
    args: ["command", "scheduling", "MoveAppointment", "--aggregate", "Appointment"],
    holds: false,
  },
  { args: ["aggregate", "scheduling", "Slot"], holds: true },
  { args: ["repository", "scheduling", "Slot"], holds: true },
  // A table as kit generated it before ids per tenant (keyed by id alone), to re-key.
  { args: ["rekey", "scheduling", "Slot"], holds: true, before: keyedByIdAlone("slots") },
  {
    args: [
      ..."command scheduling ConfirmAppointment --permission appointment.confirm".split(" "),
      ..."--grant front-desk".split(" "),
    ],
    holds: true,
  },
  { args: ["aggregate", "scheduling", "Room"], holds: true },
  {
    args:
      "query scheduling ListRooms --search --aggregate Room --permission room.read --grant front-desk"
        .split(" "),
    holds: true,
  },
  { args: "query scheduling ListSlots --search --aggregate Slot".split(" "), holds: false },
  {
    args: ["query", "scheduling", "ListAppointments", "--permission", "appointment.list"],
    holds: true,
  },
  { args: ["route-group", "scheduling", "AppointmentRoutes"], holds: true },
  { args: "route scheduling ListAppointments --group AppointmentRoutes".split(" "), holds: true },
  {
    args: "route scheduling ConfirmAppointment --function --path /confirmations".split(" "),
    holds: true,
  },
  { args: ["route-group", "scheduling", "DeskRoutes", "--role", "clinic-admin"], holds: true },
  { args: ["route-group", "scheduling", "FrontRoutes", "--role", "clinic-admin"], holds: false },
  {
    args: ["policy", "scheduling", "CancelOwn", "--permission", "appointment.cancel"],
    holds: true,
  },
  { args: ["policy", "scheduling", "MoveOwn", "--permission", "appointment.move"], holds: false },
  { args: ["integration-event", "scheduling", "AppointmentBooked"], holds: true },
  { args: ["integration-handler", "notifications", "AppointmentBooked"], holds: true },
  {
    args:
      "process-manager scheduling BookingFollowUp --starts-on AppointmentBooked --deadline remind"
        .split(" "),
    holds: true,
  },
  { args: ["job", "scheduling", "SendReminders", "--every", "1h"], holds: true },
  { args: ["background-job", "scheduling", "Book", "--command", "BookAppointment"], holds: true },
  { args: ["error-code", "scheduling", "SLOT_TAKEN", "--status", "409"], holds: true },
  { args: ["gateway", "scheduling", "identity"], holds: true },
  { args: ["adr", "scheduling", "UseTimeSlots"], holds: true },
  { args: ["adr", "scheduling", "KeepOwnClock", "--deviation"], holds: true },
  { args: ["service", "scheduling"], holds: true },
  // The project has a Node entry point: apps/worker/main.node.ts too.
  { args: ["worker"], holds: true },
];

/** Rewrites the migration creating `table` of the scheduling context as kit wrote it before. */
function keyedByIdAlone(table: string): (dir: string) => Promise<void> {
  return async (dir) => {
    const folder = join(dir, "src/contexts/scheduling/infrastructure/migrations");
    const file = (await readdir(folder)).find((name) => name.endsWith(`-create-${table}.ts`));
    assert.ok(file, `the migration creating ${table}`);
    const now = await readFile(join(folder, file), "utf8");
    const before = now.replace(
      new RegExp(`(create table if not exists "scheduling"\\."${table}" \\()[\\s\\S]*?\\n\\);\\n`),
      `$1
  id text primary key,
  tenant_id text not null,
  data jsonb not null default '{}'::jsonb,
  version integer not null check (version > 0)
);
`,
    );
    assert.notEqual(before, now, `the migration creating ${table} is rewritten`);
    await writeFile(join(folder, file), before);
  };
}

async function helpJson(): Promise<GeneratorKind[]> {
  let printed = "";
  const log = console.log;
  console.log = (text: string) => void (printed += text);
  try {
    assert.equal(await main(["generate", "--help", "--json"]), 0);
  } finally {
    console.log = log;
  }
  return JSON.parse(printed).kinds;
}

/** The paths whose contents differ between two trees (added, changed or removed). */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...paths].filter((p) => before[p] !== after[p]).sort();
}

/** The options of a step (`--role`), as a command line gives them. */
function optionsOf(args: readonly string[]): Set<string> {
  return new Set(args.filter((a) => a.startsWith("--")));
}

/** The hook's decision on a command line run in the worktree of `context`'s worker. */
function hookAllows(command: string, context: string): boolean {
  return decidePreToolUse({
    agent_type: "kit:context-builder",
    tool_name: "Bash",
    tool_input: { command },
  }, { root: "/w", context }).allow;
}

const invocations = [
  "kit",
  "deno run -A /opt/kit/cli/main.ts",
  "deno run -A jsr:@kit/cli@^0.1.0",
  "deno task kit",
];

Deno.test("for every kind, --help --json, --local-only, the briefing and the hook say what the plan writes outside its context", async () => {
  const kinds = await helpJson();
  const dir = await initializedProject(["--runtime", "deno", "--runtime", "node"]);
  const written = new Map<string, Set<string>>(kinds.map((k) => [k.kind, new Set()]));
  try {
    for (const step of steps) {
      const [name, first] = step.args;
      const kind = kinds.find((k) => k.kind === name)!;
      const label = `kit generate ${step.args.join(" ")}`;
      const prefix = name === "worker" ? undefined : `src/contexts/${first}/`;
      await step.before?.(dir);
      const before = await projectTree(dir);
      const local = await quietly(() => main(["generate", ...step.args, "--local-only"], dir));
      const refused = local.result !== 0;
      if (refused) {
        assert.deepEqual(await projectTree(dir), before, `${label} --local-only wrote nothing`);
        assert.equal(
          await quietly(() => main(["generate", ...step.args], dir)).then((r) => r.result),
          0,
        );
      }
      const outside = changed(before, await projectTree(dir)).filter((p) =>
        prefix === undefined || !p.startsWith(prefix)
      );
      for (const path of outside) {
        const file = kind.sharedFiles.find((f) => namesFile(f, path));
        assert.ok(file !== undefined, `${label} wrote ${path}, which --help --json does not name`);
        written.get(name!)!.add(file);
      }
      // --local-only refuses exactly when the plan changes a file outside the context, naming them.
      assert.equal(refused, outside.length > 0, `${label} --local-only: ${local.stderr}`);
      if (refused) {
        assert.equal(local.stderr.length, 1);
        assert.match(local.stderr[0]!, new RegExp(`would write ${outside.length} shared file`));
        for (const path of outside) assert.ok(local.stderr[0]!.includes(path), path);
      }
      // An always-shared kind writes outside every time; the others only with their option.
      if (kind.writesShared) assert.ok(refused, `${label} writes shared files`);
      const given = optionsOf(step.args);
      const conditional = kind.sharedWrites.filter((w) => w.option !== undefined);
      // Written only in a state of the project no option names (the first process manager
      // composes the platform's process store): announced where the case holds; --local-only
      // refuses them, the hook (which reads the command line alone) cannot tell.
      const stateDependent = kind.writesShared ? [] : kind.sharedWrites
        .filter((w) => w.option === undefined && w.when !== undefined && !w.outsideWorktree)
        .map((w) => w.file);
      const byState = step.holds && stateDependent.length > 0;
      // Written in the conductor's tree only (this project is one): derived documents.
      const conductors = kind.sharedWrites
        .filter((w) => w.outsideWorktree && (w.option === undefined || given.has(w.option)))
        .map((w) => w.file);
      if (
        !kind.writesShared && conductors.length === 0 && !byState &&
        !conditional.some((w) => given.has(w.option!))
      ) {
        assert.deepEqual(outside, [], `${label} writes inside its context`);
      }
      // The files the options announce are written: all where the case holds, else those that
      // depend on no case.
      const announced = [
        ...sharedFilesGiven(kind, given),
        ...conductors,
        ...(byState ? stateDependent : []),
      ];
      const certain = announced.filter((file) =>
        conductors.includes(file) ||
        kind.sharedWrites.some((w) =>
          w.file === file && w.when === undefined && (w.option === undefined || given.has(w.option))
        )
      );
      assert.deepEqual(
        announced.filter((f) => outside.some((p) => namesFile(f, p))),
        step.holds ? announced : certain,
        `${label}: the files --help --json announces for these options`,
      );
      assert.equal(
        outside.length,
        outside.filter((p) => announced.some((f) => namesFile(f, p))).length,
      );
      // The hook reads the command line alone: it refuses what these options announce, which is
      // what --local-only refuses wherever the case holds.
      // (It runs in a worker's worktree, where the conductor's documents are not written.)
      const inWorktree = sharedFilesGiven(kind, given);
      for (const kit of invocations) {
        const allows = hookAllows(
          `${kit} generate ${step.args.join(" ")}`,
          step.args[1] ?? "scheduling",
        );
        assert.equal(allows, inWorktree.length === 0, `${kit} generate ${step.args.join(" ")}`);
        if (step.holds && conductors.length === 0 && !byState) {
          assert.equal(allows, !refused, `${kit}: as --local-only`);
        }
      }
    }
    // No phantom: every file a kind announces is written by one of the runs above.
    for (const kind of kinds) {
      assert.deepEqual(
        [...written.get(kind.kind)!].sort(),
        [...kind.sharedFiles].sort(),
        `kit generate ${kind.kind}`,
      );
    }
    // The briefing allows exactly the kinds whose runs without options stayed in their context.
    assert.deepEqual(
      allowedGenerators(),
      kinds.filter((k) => !k.writesShared).map((k) => k.kind),
    );
    assert.deepEqual(
      [...new Set(steps.map((s) => s.args[0]!))].sort(),
      kinds.map((k) => k.kind).sort(),
      "every kind is run",
    );
  } finally {
    await rm(dir, { recursive: true });
  }
});
