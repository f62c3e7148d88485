/**
 * The CLI's whole workflow, run through the real `kit` executable in a temporary directory: a
 * bootstrap on the trunk with every generator kind, the generated project's own checks, the
 * derived files kept current, and two workers each building a slice of one context in a worktree
 * of their own, merged without conflicts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "./commands/served_project.ts";
import { generatorKinds } from "./generators/catalog.ts";

const checkout = fileURLToPath(new URL("../", import.meta.url));
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

const executable = [
  "run",
  "-A",
  "--quiet",
  "--config",
  join(checkout, "deno.json"),
  join(checkout, "cli/main.ts"),
];

/** `kit <args>` through the executable, as `deno install -g -n kit` would run it. */
function kit(cwd: string, ...args: string[]): Promise<Run> {
  return run(cwd, Deno.execPath(), [...executable, ...args]);
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
    [...executable, "hook", "pre-tool-use"],
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
): Promise<string> {
  const result = await run(cwd, Deno.execPath(), ["task", name], undefined, env);
  const text = result.stdout + result.stderr;
  assert.equal(result.code, 0, `deno task ${name} failed:\n${text}`);
  return text;
}

/** The bootstrap on the trunk: every kind that writes shared files, and a few that do not. */
const bootstrap: readonly (readonly string[])[] = [
  ["context", "billing", "--kind", "generic"],
  ["gateway", "scheduling", "identity"],
  ["integration-event", "identity", "PersonRegistered"],
  ["aggregate", "scheduling", "Appointment"],
  ["repository", "scheduling", "Appointment"],
  [
    "command",
    "scheduling",
    "CancelAppointment",
    "--aggregate",
    "Appointment",
    "--permission",
    "appointment.cancel",
  ],
  ["background-job", "scheduling", "CancelLater", "--command", "CancelAppointment"],
  ["policy", "scheduling", "ClearCalendar", "--permission", "calendar.clear"],
  ["route-group", "scheduling", "AppointmentRoutes", "--role", "practitioner"],
  ["port", "identity", "Directory"],
  ["adapter", "identity", "Directory", "--kind", "external", "--decorators"],
  ["command", "identity", "RegisterPerson"],
  ["job", "identity", "PurgeInvitations", "--every", "1h", "--command", "RegisterPerson"],
  ["service", "scheduling"],
  ["worker"],
  ["adr", "scheduling", "OneSchedulingContext", "--deviation"],
];

/** What each worker builds in its own worktree, inside its context only. */
const slices: Readonly<Record<string, readonly (readonly string[])[]>> = {
  scheduling: [
    ["query", "scheduling", "ReadAgenda", "--permission", "agenda.read"],
    ["command", "scheduling", "ConfirmAppointment", "--aggregate", "Appointment"],
    [
      "error-code",
      "scheduling",
      "SLOT_TAKEN",
      "--status",
      "409",
      "--description",
      "The slot is booked already",
    ],
  ],
  notifications: [
    ["integration-handler", "notifications", "PersonRegistered"],
    ["query", "notifications", "SearchNotifications", "--search"],
  ],
};

Deno.test({
  name:
    "kit end to end: init, every generator kind, verify and test pass, docs --check catches a hand edit, two worker scopes merge clean",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const parent = await Deno.makeTempDir({ prefix: "kit-e2e-" });
    const root = join(parent, "clinic");
    await succeeds(
      parent,
      "init",
      "clinic",
      "--context",
      "identity:supporting",
      "--context",
      "scheduling:core",
      "--context",
      "notifications:generic",
      "--link",
      checkout,
    );
    await git(root, "init", "-q", "-b", "main");

    const used = new Set<string>();
    for (const args of bootstrap) {
      await succeeds(root, "generate", ...args);
      used.add(args[0]!);
    }
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
    await succeeds(root, "docs");
    await succeeds(root, "docs", "--check");
    assert.equal(await git(root, "status", "--porcelain"), "", "kit docs restored the barrel");

    // Two workers, one context each, in worktrees of their own; only --local-only generators.
    for (const [context, steps] of Object.entries(slices)) {
      const briefing = JSON.parse(await succeeds(root, "worker-scope", context, "--json"));
      assert.equal(briefing.branch, `build/${context}`);
      const worktree = join(parent, `clinic-${context}`);
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
      for (const args of steps) {
        await succeeds(worktree, "generate", ...args, "--local-only");
        used.add(args[0]!);
      }
      const changed = (await git(worktree, "status", "--porcelain", "-uall")).split("\n")
        .filter((line) => line !== "").map((line) => line.slice(3));
      const outside = changed.filter((path) => !path.startsWith(`src/contexts/${context}/`));
      assert.deepEqual(outside, [], `the ${context} worker wrote outside its context`);
      await git(worktree, "add", ".");
      await git(worktree, "commit", "-qm", `${context}: slice`);
    }
    assert.deepEqual(
      generatorKinds.map((kind) => kind.kind).filter((kind) => !used.has(kind)),
      [],
      "every generator kind ran",
    );

    // The conductor merges both slices, regenerates the derived files, and all is current.
    await git(root, "merge", "-q", "--no-edit", "build/scheduling");
    await git(root, "merge", "-q", "--no-edit", "build/notifications");
    await succeeds(root, "docs");
    await succeeds(root, "docs", "--check");

    // With DATABASE_URL, the project runs on a database of its own, dropped after.
    const database = databaseUrl ? await createTestDatabase(databaseUrl) : undefined;
    const env: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
    let tested: string;
    try {
      await task(root, "verify", env);
      tested = await task(root, "test", env);
    } finally {
      await database?.drop();
    }
    for (
      const name of [
        /CancelAppointment is refused to an actor without appointment\.cancel/,
        /CancelLater enqueued by a user runs what is due as that user, in their tenant \.\.\. ok/,
        /InMemoryAppointmentRepository keeps tenants apart: t1's Appointment is neither found/,
        /InMemoryAppointmentRepository refuses a stale save \(CONCURRENT_UPDATE\)/,
        /ConfirmAppointment over other work's save is refused \(CONCURRENT_UPDATE\)/,
        /ReadAgenda is refused to an actor without agenda\.read/,
        /SearchNotifications runs through the query bus/,
        /PurgeInvitations runs once per tick of 1h/,
        /the scheduling service composes with its context alone/,
        /the application composes with every context's module/,
      ]
    ) assert.match(tested, name);
    assert.match(tested, /ok \| \d+ passed (\(\d+ steps\) )?\| 0 failed/);
  },
});
