import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { initProject } from "./init.ts";
import { generate } from "./generate.ts";
import { status, todos } from "./status.ts";
import { formatBriefing, workerScope } from "./worker_scope.ts";

async function git(cwd: string, ...args: string[]): Promise<void> {
  const { code } = await new Deno.Command("git", { args, cwd, stdout: "null", stderr: "null" })
    .output();
  assert.equal(code, 0, `git ${args.join(" ")}`);
}

async function project(commit: boolean): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "kit-scope-" });
  const root = join(parent, "clinic");
  await initProject(root, { contexts: ["identity:supporting", "scheduling:core"] });
  const config = JSON.parse(await readFile(join(root, "kit.config.json"), "utf8"));
  config.relationships = [{ upstream: "identity", downstream: "scheduling" }];
  await writeFile(join(root, "kit.config.json"), JSON.stringify(config, null, 2) + "\n");
  await git(root, "init", "-q", "-b", "main");
  if (commit) {
    await git(root, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".");
    await git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "bootstrap");
  }
  return root;
}

Deno.test("kit worker-scope adds a worktree on build/<context>, writes .kit/worker.json and briefs", async () => {
  const root = await project(true);
  const worktree = join(dirname(root), `${basename(root)}-scheduling`);
  const dry = await workerScope(root, "scheduling", { dryRun: true });
  assert.equal(existsSync(worktree), false, "--dry-run changes nothing");
  assert.equal(dry.worktree, worktree);
  const briefing = await workerScope(root, "scheduling", {});
  assert.deepEqual(JSON.parse(await readFile(join(worktree, ".kit/worker.json"), "utf8")), {
    context: "scheduling",
  });
  assert.equal(briefing.branch, "build/scheduling");
  assert.deepEqual(briefing.writable, ["src/contexts/scheduling/**", "test/e2e/scheduling/**"]);
  assert.deepEqual(briefing.allowedGenerators, [
    "adr",
    "aggregate",
    "background-job",
    "command",
    "error-code",
    "integration-event",
    "integration-handler",
    "job",
    "process-manager",
    "port",
    "query",
    "route",
    "route-group",
  ]);
  const text = formatBriefing(briefing);
  // One line per kind and option refused, each a clause of its own; integration-handler's write
  // of the context map happens only in the conductor's tree, so it is no refusal.
  assert.match(
    text,
    /^Allowed generators, each run with --local-only \(it refuses a run that would write a shared file\):\n {2}aggregate, background-job, error-code, integration-event, integration-handler, job, port\n {2}adr: refused with --deviation\n {2}command: refused with --aggregate when the aggregate has no repository yet or its repository is not registered yet\n {2}command: refused with --grant\n(.*\n)* {2}process-manager: refused when the platform has no process store yet\n(.*\n)* {2}route: refused with --function\n {2}route-group: refused with --role when it names a role the platform does not grant yet\nYour slices:$/m,
  );
  assert.doesNotMatch(text, /integration-handler: refused/);
  assert.deepEqual(briefing.slices.map((s) => s.context), ["scheduling"]);
  assert.deepEqual(briefing.consumedContracts, [
    "src/contexts/identity/published-language/ (read-only)",
  ]);
  await writeFile(join(worktree, "work.txt"), "in progress");
  await workerScope(root, "scheduling", {});
  assert.equal(
    await readFile(join(worktree, "work.txt"), "utf8"),
    "in progress",
    "an existing worktree is kept",
  );
});

Deno.test("kit worker-scope needs a repository with a commit, and a known context", async () => {
  const root = await project(false);
  await assert.rejects(
    () => workerScope(root, "scheduling", {}),
    /needs a git repository with at least one commit/,
  );
  await assert.rejects(() => workerScope(root, "billing", {}), /Unknown context 'billing'/);
});

Deno.test("kit todo lists TODO(domain) as file:line and kit status counts slices", async () => {
  const root = await project(false);
  await generate(root, {
    kind: "command",
    positionals: ["scheduling", "BookAppointment"],
    options: {},
  });
  assert.deepEqual(await todos(root, "scheduling"), [
    "src/contexts/scheduling/application/commands/book-appointment/book-appointment.handler.ts:8  TODO(domain): load the aggregate, let it decide, save it at the version it loaded.",
  ]);
  // Lines sort as numbers: 9 before 10.
  const handler = join(
    root,
    "src/contexts/scheduling/application/commands/book-appointment/book-appointment.handler.ts",
  );
  const lines = (await readFile(handler, "utf8")).split("\n");
  lines.splice(0, 0, "// TODO(platform): first", ...Array(8).fill(""), "// TODO(domain): tenth");
  await writeFile(handler, lines.join("\n"));
  assert.deepEqual(
    (await todos(root, "scheduling")).map((line) => line.replace(/^.*handler\.ts:/, "")),
    [
      "1  TODO(platform): first",
      "10  TODO(domain): tenth",
      "18  TODO(domain): load the aggregate, let it decide, save it at the version it loaded.",
    ],
  );
  const text = await status(root);
  assert.match(text, /^Slices: 3 \(done 1, todo 2\)/);
  assert.match(text, /scheduling: 3/, "three markers left in scheduling");
});
