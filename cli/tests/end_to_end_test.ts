/**
 * The CLI's whole workflow in a temporary directory: a bootstrap on the trunk with every generator
 * kind, the generated project's own checks, the derived files kept current, and two workers each
 * building a slice of one context in a worktree of their own, merged without conflicts. What a
 * user meets at the process's edge runs through the real `kit` executable (init, a failing
 * `docs --check` and its exit code, `worker-scope --json`, the plugin's hook on stdin, `status`,
 * `resolve`, the project's `verify` running kit itself); the sixty `generate`s and the eight
 * passing `docs` runs go through the same `main` in this process, each as one executable run would
 * (its arguments, its directory, its exit code): a process started for each was about a quarter
 * of this test's CPU time.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "../commands/served_project.ts";
import { clinicContexts, keyedByIdAlone, kitExecutable, kitIn } from "../commands/test_project.ts";
import { generatorKinds } from "../generators/catalog.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const databaseUrl = Deno.env.get("DATABASE_URL");

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(
  cwd: string,
  program: string,
  args: readonly string[],
  stdin?: string,
  env: Record<string, string> = {},
): Promise<Run> {
  const child = new Deno.Command(program, {
    args: [...args],
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** `kit <args>` through the executable, as `deno install -g -n kit` would run it. */
function kit(cwd: string, ...args: string[]): Promise<Run> {
  return run(cwd, Deno.execPath(), [...kitExecutable, ...args]);
}

/** What the coding-agent plugin's hook answers a worker's write of `path` (empty: allowed). */
async function hookOnWrite(worktree: string, path: string): Promise<string> {
  const input = {
    agent_id: "a1b2c3d4",
    agent_type: "kit:context-builder",
    cwd: worktree,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(worktree, path), content: "// work\n" },
  };
  const result = await run(
    worktree,
    Deno.execPath(),
    [...kitExecutable, "hook", "pre-tool-use"],
    JSON.stringify(input),
  );
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim();
}

async function succeeds(cwd: string, ...args: string[]): Promise<string> {
  const result = await kit(cwd, ...args);
  assert.equal(result.code, 0, `kit ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** `kit <args>` run in this process in `cwd` (what the executable runs); fails unless it exits 0. */
async function kitHere(cwd: string, ...args: string[]): Promise<string> {
  const { result, out } = await kitIn(cwd, ...args);
  assert.equal(result, 0, `kit ${args.join(" ")} failed:\n${out}`);
  return out;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const result = await run(cwd, "git", [
    "-c",
    "user.email=worker@example.com",
    "-c",
    "user.name=worker",
    ...args,
  ]);
  assert.equal(result.code, 0, `git ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

async function task(
  cwd: string,
  name: string,
  env: Record<string, string> = {},
  ...args: string[]
): Promise<string> {
  const result = await run(cwd, Deno.execPath(), ["task", name, ...args], undefined, env);
  const text = result.stdout + result.stderr;
  assert.equal(result.code, 0, `deno task ${[name, ...args].join(" ")} failed:\n${text}`);
  return text;
}

/**
 * One argument list a line, as a shell reads it: words split at spaces, a double-quoted phrase is
 * one argument.
 */
function commandLines(lines: string): string[][] {
  return lines.split("\n").map((line) => line.trim()).filter((line) => line !== "").map((line) =>
    [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((word) => word[1] ?? word[2]!)
  );
}

/** The bootstrap on the trunk: every kind that writes shared files, and a few that do not. */
const bootstrap: readonly (readonly string[])[] = commandLines(`
  context billing --kind generic
  gateway scheduling identity
  integration-event identity PersonRegistered
  integration-event identity PersonRenamed
  process-manager identity Onboarding --starts-on PersonRegistered --deadline welcome
  aggregate scheduling Appointment
  repository scheduling Appointment
  command scheduling CancelAppointment --aggregate Appointment --permission appointment.cancel
  background-job scheduling CancelLater --command CancelAppointment
  policy scheduling ClearCalendar --permission calendar.clear
  route-group scheduling AppointmentRoutes --role practitioner
  port identity Directory
  adapter identity Directory --kind external --decorators
  command identity RegisterPerson
  job identity PurgeInvitations --every 1h --command RegisterPerson
  service scheduling
  worker
  adr scheduling OneSchedulingContext --deviation
`);

/**
 * The workers: two contexts, one of them built by two workers on two use cases. Each runs every
 * kind its briefing allows, with `--local-only`, in its own worktree; `steps` holds the arguments
 * of each kind, a line each (in the order they run: a job after the command it sends).
 */
const workers: readonly {
  readonly context: string;
  readonly worktree: string;
  readonly branch: string;
  readonly steps: readonly (readonly string[])[];
}[] = [
  {
    context: "scheduling",
    worktree: "clinic-scheduling",
    branch: "build/scheduling",
    steps: commandLines(`
      aggregate scheduling Calendar
      port scheduling SlotFinder
      command scheduling ConfirmAppointment --aggregate Appointment --permission appointment.confirm
      query scheduling ReadAgenda --permission agenda.read
      error-code scheduling SLOT_TAKEN --status 409 --description "The slot is booked already"
      background-job scheduling ConfirmLater --command ConfirmAppointment
      command scheduling ReleaseHolds
      job scheduling ReleaseHoldsHourly --every 1h --command ReleaseHolds
      integration-event scheduling AppointmentConfirmed
      process-manager scheduling ConfirmationFollowUp --starts-on AppointmentConfirmed --deadline remind
      integration-handler scheduling PersonRegistered
      route-group scheduling AgendaRoutes
      route scheduling ReleaseHolds --group AgendaRoutes
      adr scheduling AgendaFromAppointments
    `),
  },
  {
    context: "scheduling",
    worktree: "clinic-scheduling-rooms",
    branch: "build/scheduling-rooms",
    steps: commandLines(`
      aggregate scheduling Room
      port scheduling RoomFinder
      command scheduling RescheduleAppointment --aggregate Appointment --permission appointment.reschedule
      query scheduling SearchRooms --permission room.read --search
      error-code scheduling ROOM_CLOSED --status 409 --description "The room is closed"
      background-job scheduling RescheduleLater --command RescheduleAppointment
      command scheduling SweepRooms
      job scheduling SweepRoomsDaily --every 1d --command SweepRooms
      integration-event scheduling AppointmentRescheduled
      process-manager scheduling RescheduleFollowUp --starts-on AppointmentRescheduled --handles PersonRenamed --deadline remind
      integration-handler scheduling PersonRenamed
      route-group scheduling RoomRoutes
      route scheduling SearchRooms --group RoomRoutes
      adr scheduling RoomsAsAggregates
    `),
  },
  {
    context: "notifications",
    worktree: "clinic-notifications",
    branch: "build/notifications",
    steps: commandLines(`
      aggregate notifications Notice
      port notifications Mailer
      command notifications SendDigest --permission digest.send
      query notifications SearchNotifications --search
      error-code notifications MAILBOX_FULL --status 422 --description "The recipient's mailbox is full"
      background-job notifications SendDigestLater --command SendDigest
      job notifications SendDigestDaily --every 1d --command SendDigest
      integration-event notifications NoticeSent
      process-manager notifications NoticeFollowUp --starts-on NoticeSent --deadline check
      integration-handler notifications PersonRegistered
      route-group notifications NoticeRoutes
      route notifications SearchNotifications
      adr notifications DigestOncePerDay
    `),
  },
];

Deno.test({
  name:
    "kit end to end: init, every generator kind, verify and test pass, docs --check catches a hand edit, two worker scopes merge clean",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const parent = await Deno.makeTempDir({ prefix: "kit-e2e-" });
    try {
      await workflow(parent);
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});

/** The workflow, in the temporary directory `parent`: the project, its worktrees beside it. */
async function workflow(parent: string): Promise<void> {
  const root = join(parent, "clinic");
  await succeeds(parent, "init", "clinic", ...clinicContexts, "--link", checkout, "--no-git");
  await git(root, "init", "-q", "-b", "main");

  const used = new Set<string>();
  for (const args of bootstrap) {
    await kitHere(root, "generate", ...args);
    used.add(args[0]!);
  }
  // A repository as kit generated it before ids per tenant (its table keyed by id alone):
  // docs --check names it with the command that re-keys it, which the conductor runs. The
  // project's specs then run its migrations in order on PostgreSQL: the old table, re-keyed.
  const created = "src/contexts/scheduling/infrastructure/migrations/0001-create-appointments.ts";
  await keyedByIdAlone(root, created, "scheduling", "appointments");
  const keyed = await kit(root, "docs", "--check");
  assert.notEqual(keyed.code, 0);
  assert.match(keyed.stdout + keyed.stderr, /kit generate rekey scheduling Appointment/);
  await kitHere(root, "generate", "rekey", "scheduling", "Appointment");
  used.add("rekey");
  await git(root, "add", ".");
  await git(root, "commit", "-qm", "bootstrap: contexts, platform, contracts");
  await succeeds(root, "docs", "--check");

  // A derived file edited by hand: docs --check names it; kit docs restores it.
  const barrel = "src/contexts/scheduling/scheduling.declarations.ts";
  await writeFile(
    join(root, barrel),
    (await readFile(join(root, barrel), "utf8")) + "// edited by hand\n",
  );
  const stale = await kit(root, "docs", "--check");
  assert.notEqual(stale.code, 0, "docs --check fails on a hand-edited barrel");
  assert.match(stale.stdout + stale.stderr, new RegExp(barrel.replaceAll(".", "\\.")));
  await kitHere(root, "docs");
  await kitHere(root, "docs", "--check");
  assert.equal(await git(root, "status", "--porcelain"), "", "kit docs restored the barrel");

  // Three workers in worktrees of their own: two contexts, scheduling built by two workers on
  // two use cases. Each runs every kind its briefing allows, with --local-only.
  for (const worker of workers) {
    const { context } = worker;
    const worktree = join(parent, worker.worktree);
    const briefing = JSON.parse(
      await succeeds(
        root,
        "worker-scope",
        context,
        "--json",
        "--worktree",
        worktree,
        "--branch",
        worker.branch,
      ),
    );
    assert.equal(briefing.branch, worker.branch);
    assert.equal(briefing.worktree, worktree);
    assert.deepEqual(
      JSON.parse(await readFile(join(worktree, ".kit/worker.json"), "utf8")),
      { context },
    );
    assert.equal(await hookOnWrite(worktree, `src/contexts/${context}/domain/note.ts`), "");
    assert.match(
      await hookOnWrite(worktree, "src/platform/compose-application.ts"),
      /"permissionDecision":\s*"deny"/,
      "the plugin's hook refuses a write outside the worker's context",
    );
    assert.deepEqual(
      [...new Set(worker.steps.map((args) => args[0]!))].sort(),
      [...briefing.allowedGenerators].sort(),
      `the ${worker.branch} worker runs every kind its briefing allows`,
    );
    for (const args of worker.steps) {
      await kitHere(worktree, "generate", ...args, "--local-only");
      used.add(args[0]!);
    }
    const changed = (await git(worktree, "status", "--porcelain", "-uall")).split("\n")
      .filter((line) => line !== "").map((line) => line.slice(3));
    const outside = changed.filter((path) => !path.startsWith(`src/contexts/${context}/`));
    assert.deepEqual(outside, [], `the ${worker.branch} worker wrote outside its context`);
    await git(worktree, "add", ".");
    await git(worktree, "commit", "-qm", `${context}: ${worker.branch}`);
  }
  assert.deepEqual(
    generatorKinds.map((kind) => kind.kind).filter((kind) => !used.has(kind)),
    [],
    "every generator kind ran",
  );

  // The conductor merges in the order kit status prints (upstream first), one branch at a
  // time. The second scheduling branch conflicts in the context's derived files and in its
  // permissions and error codes; the recipe of docs/workflow.md settles it: kit resolve.
  const order = (await succeeds(root, "status")).split("Merge order")[1]!.split("\n")
    .filter((line) => /^\s+\d+\. /.test(line))
    .flatMap((line) => line.replace(/^\s+\d+\. /, "").split(", "));
  assert.ok(
    order.indexOf("identity") < order.indexOf("scheduling"),
    `scheduling reads identity, so identity comes first: ${order.join(", ")}`,
  );
  const conflicts: string[] = [];
  for (const context of order) {
    for (const worker of workers.filter((w) => w.context === context)) {
      const merge = await run(root, "git", [
        "-c",
        "user.email=conductor@example.com",
        "-c",
        "user.name=conductor",
        "merge",
        "--no-edit",
        worker.branch,
      ]);
      if (merge.code !== 0) {
        conflicts.push(worker.branch);
        const resolved = await succeeds(root, "resolve");
        assert.match(
          resolved,
          new RegExp(`regenerated src/contexts/${context}/${context}\\.declarations\\.ts`),
        );
        assert.match(
          resolved,
          new RegExp(`merged src/contexts/${context}/${context}\\.permissions`),
        );
        assert.doesNotMatch(
          await readFile(
            join(root, `src/contexts/${context}/${context}.declarations.ts`),
            "utf8",
          ),
          /^<{7}/m,
        );
        await git(root, "add", ...resolved.split("git add ")[1]!.trim().split(" "));
        await git(root, "-c", "core.editor=true", "commit", "--no-edit");
      }
      // A clean merge can still leave the context map behind (an event consumed): regenerate.
      await kitHere(root, "docs");
      if (await git(root, "status", "--porcelain") !== "") {
        await git(root, "add", ".");
        await git(root, "commit", "-qm", `docs after ${worker.branch}`);
      }
      await kitHere(root, "docs", "--check");
    }
  }
  assert.deepEqual(
    conflicts,
    ["build/scheduling-rooms"],
    "the second scheduling branch conflicted",
  );
  assert.equal(await git(root, "status", "--porcelain"), "", "nothing left unmerged");
  // Both scheduling workers numbered their decision 0002, after the trunk's 0001: the later one
  // in name order is renumbered 0003.
  assert.deepEqual(
    [...Deno.readDirSync(join(root, "src/contexts/scheduling/docs/adr"))].map((e) => e.name)
      .sort(),
    [
      "0001-one-scheduling-context.md",
      "0002-agenda-from-appointments.md",
      "0003-rooms-as-aggregates.md",
    ],
  );

  // With DATABASE_URL, the project runs on a database of its own, dropped after.
  const database = databaseUrl ? await createTestDatabase(databaseUrl) : undefined;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  let tested: string;
  try {
    await task(root, "verify", env);
    // verify type-checked every file of the project (`deno check .`): the specs run unchecked,
    // not type-checked a second time.
    tested = await task(root, "test", env, "--no-check");
  } finally {
    await database?.drop();
  }
  for (
    const name of [
      /CancelAppointment is refused to an actor without appointment\.cancel/,
      /CancelLater enqueued by a user runs what is due as that user, in their tenant \.\.\. ok/,
      /InMemoryAppointmentRepository keeps tenants apart: each tenant's Appointment of one id is its own/,
      /InMemoryAppointmentRepository refuses an id its tenant keeps already \(APPOINTMENT_EXISTS\)/,
      /InMemoryAppointmentRepository refuses a stale save \(CONCURRENT_UPDATE\)/,
      /ConfirmAppointment over other work's save is refused \(CONCURRENT_UPDATE\)/,
      /ReadAgenda is refused to an actor without agenda\.read/,
      /SearchNotifications runs through the query bus/,
      /RescheduleLater enqueued by a user runs what is due as that user, in their tenant \.\.\. ok/,
      /ReleaseHoldsHourly runs once per tick of 1h \.\.\. ok/,
      /SweepRoomsDaily runs once per tick of 1d \.\.\. ok/,
      /SearchRooms is refused to an actor without room\.read/,
      /PurgeInvitations runs once per tick of 1h/,
      /the scheduling service composes with its context alone/,
      /the application composes with every context's module/,
    ]
  ) assert.match(tested, name);
  assert.match(tested, /ok \| \d+ passed (\(\d+ steps\) )?\| 0 failed/);
}
