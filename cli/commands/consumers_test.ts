import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { docs } from "./docs.ts";
import { generate } from "./generate.ts";
import { createTestDatabase, serveProject } from "./served_project.ts";
import { status } from "./status.ts";
import { initializedProject, projectTree, quietly } from "./test_project.ts";
import { workerScope } from "./worker_scope.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");

async function kit(root: string, kind: string, ...positionals: string[]): Promise<void> {
  const local = positionals.at(-1) === "--local-only";
  await quietly(() =>
    generate(root, {
      kind,
      positionals: local ? positionals.slice(0, -1) : positionals,
      options: local ? { "local-only": true } : {},
    })
  );
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const { code } = await new Deno.Command("git", {
    args: ["-c", "user.email=t@t", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.equal(code, 0, `git ${args.join(" ")}`);
}

/**
 * `deno test` of one spec in the project (`--no-check` once an earlier run type-checked it): its
 * exit code and output.
 */
async function specRun(
  root: string,
  spec: string,
  checked = false,
): Promise<{ code: number; text: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", ...(checked ? ["--no-check"] : []), spec],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, text: decode(output.stdout) + decode(output.stderr) };
}

const reactions = "src/contexts/notifications/application/reactions";

Deno.test("an integration handler is a consumer: the context map's edge, the briefing's contract, the merge order", async () => {
  const root = await initializedProject(["--no-git"]);
  await kit(root, "integration-event", "scheduling", "AppointmentBooked");
  await kit(root, "integration-event", "scheduling", "AppointmentCancelled");
  await kit(root, "integration-event", "identity", "PersonRegistered");
  await kit(root, "integration-handler", "notifications", "AppointmentBooked");
  await kit(root, "integration-handler", "notifications", "AppointmentCancelled");
  await kit(root, "integration-handler", "scheduling", "PersonRegistered");

  const map = await readFile(join(root, "docs/context-map.md"), "utf8");
  assert.match(map, /\n {2}identity -->\|"PersonRegistered"\| scheduling\n/);
  assert.match(
    map,
    /\n {2}scheduling -->\|"AppointmentBooked, AppointmentCancelled"\| notifications\n/,
  );
  assert.match(
    map,
    /\| notifications +\| generic +\| +\| scheduling +\| AppointmentBooked, AppointmentCancelled \(scheduling\) +\|/,
  );
  assert.deepEqual(await quietly(() => docs(root, { check: true })).then((r) => r.result), []);

  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", ".");
  await git(root, "commit", "-qm", "bootstrap");
  const briefing = await workerScope(root, "notifications", { dryRun: true });
  assert.deepEqual(briefing.consumedContracts, [
    "src/contexts/scheduling/published-language/ (read-only): AppointmentBooked, AppointmentCancelled",
  ]);
  assert.deepEqual((await workerScope(root, "identity", { dryRun: true })).consumedContracts, []);

  const order = (await status(root)).split("\n");
  const from = order.indexOf("Merge order (the contracts of upstream contexts first):");
  assert.deepEqual(order.slice(from + 1), [
    "  1. identity",
    "  2. scheduling",
    "  3. notifications",
  ]);

  // identity consuming scheduling's event back: a cycle, named, merged as one.
  await kit(root, "integration-handler", "identity", "AppointmentBooked");
  const cyclic = (await status(root)).split("\n");
  assert.deepEqual(cyclic.slice(from + 1), [
    "  1. identity + scheduling (a cycle: merge together)",
    "  2. notifications",
    "  Cycle: identity → scheduling → identity (upstream of one another, so no order between them: merge their contracts in one change)",
  ]);
});

Deno.test("in a worker's worktree, generate integration-handler --local-only writes inside its context only; the conductor's kit docs draws the edge", async () => {
  const root = await initializedProject();
  await kit(root, "integration-event", "scheduling", "AppointmentBooked");
  await mkdir(join(root, ".kit"), { recursive: true });
  await writeFile(join(root, ".kit/worker.json"), JSON.stringify({ context: "notifications" }));
  const before = await projectTree(root);
  await kit(root, "integration-handler", "notifications", "AppointmentBooked", "--local-only");
  const after = await projectTree(root);
  const changed = Object.keys(after).filter((path) => after[path] !== before[path]);
  assert.deepEqual(changed.filter((path) => !path.startsWith("src/contexts/notifications/")), []);
  assert.ok(changed.includes(`${reactions}/scheduling-appointment-booked.handler.spec.ts`));
  assert.doesNotMatch(after["docs/context-map.md"]!, /scheduling -->/);

  // Merged on the trunk (no worker scope file), kit docs draws the edge.
  await Deno.remove(join(root, ".kit"), { recursive: true });
  await quietly(() => docs(root));
  assert.match(
    await readFile(join(root, "docs/context-map.md"), "utf8"),
    /scheduling -->\|"AppointmentBooked"\| notifications/,
  );
});

Deno.test({
  name:
    "the generated handler spec delivers an event built from the declaration twice and sees one reaction; without processOnce it fails",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await initializedProject();
    await kit(root, "integration-event", "scheduling", "AppointmentBooked");
    const declaration = join(
      root,
      "src/contexts/scheduling/published-language/appointment-booked.event.ts",
    );
    // A payload of several types: the spec builds a valid one from the declaration.
    await writeFile(
      declaration,
      (await readFile(declaration, "utf8")).replace(
        "    id: z.string(),",
        "    appointmentId: z.string(),\n    startsAt: z.iso.datetime(),\n" +
          "    patientEmail: z.email(),\n    seats: z.number().int(),\n    note: z.string().optional(),",
      ),
    );
    await kit(root, "integration-handler", "notifications", "AppointmentBooked");
    const spec = `${reactions}/scheduling-appointment-booked.handler.spec.ts`;
    assert.match(
      await readFile(join(root, spec), "utf8"),
      /AppointmentBooked\.create\(\{\s*appointmentId: "appointmentId-1",\s*startsAt: "2026-01-05T09:00:00\.000Z",\s*patientEmail: "someone@example\.com",\s*seats: 1,?\s*\}\)/,
    );
    const passing = await specRun(root, spec);
    assert.equal(passing.code, 0, passing.text);
    assert.match(passing.text, /once, and not again when it is redelivered \.\.\. ok/);

    // The reaction run straight, without processOnce: the redelivery reacts again.
    const handler = join(root, `${reactions}/scheduling-appointment-booked.handler.ts`);
    const source = await readFile(handler, "utf8");
    const mutated = source.replace(/await processOnce\([\s\S]*?\);/, "await this.react(event);");
    assert.notEqual(mutated, source);
    await writeFile(handler, mutated);
    // What fails is the spec's assertion at run time: the first run type-checked the project.
    const failing = await specRun(root, spec, true);
    assert.notEqual(failing.code, 0, failing.text);
    assert.match(failing.text, /Expected values to be strictly deep-equal/);
  },
});

/** Rows in the job store of the database (a scheduled job's ticks, once enqueued). */
async function jobRows(sql: { unsafe(query: string): Promise<unknown[]> }): Promise<number> {
  const rows = await sql.unsafe("select count(*)::int as n from notifications.background_jobs") as {
    n: number;
  }[];
  return rows[0]!.n;
}

/**
 * Runs the project's `worker` task (`deno task worker`: its command, run directly, so that the
 * signal reaches the worker) until it says it started, then stops it (its stop drains).
 */
async function runWorker(root: string, env: Record<string, string>): Promise<string> {
  const task = JSON.parse(await readFile(join(root, "deno.json"), "utf8")).tasks.worker;
  assert.equal(task, "deno run -A apps/worker/main.ts", "kit generate worker adds its task");
  const child = new Deno.Command(Deno.execPath(), {
    args: task.split(" ").slice(1),
    cwd: root,
    env: { NO_COLOR: "1", REDIS_URL: "", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const drained = Promise.all(
    [child.stdout, child.stderr].map((stream) =>
      stream.pipeThrough(new TextDecoderStream()).pipeTo(
        new WritableStream({ write: (chunk) => void (text += chunk) }),
      )
    ),
  );
  let exited = false;
  const status = child.status.finally(() => (exited = true));
  const deadline = Date.now() + 90_000;
  while (!/worker started/.test(text)) {
    if (exited || Date.now() > deadline) {
      if (!exited) child.kill("SIGKILL");
      await status;
      await drained;
      throw new Error(`apps/worker did not start:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGTERM");
  assert.equal((await status).code, 0, text);
  await drained;
  return text;
}

Deno.test({
  name:
    "after generate worker, the API started as deno task dev starts it enqueues only: the schedule runs in apps/worker",
  ignore: databaseUrl === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await initializedProject();
    await quietly(() =>
      generate(root, {
        kind: "job",
        positionals: ["notifications", "SendDigest"],
        options: { every: "1h" },
      })
    );
    const db = await createTestDatabase(databaseUrl!);
    try {
      const env = { DATABASE_URL: db.url, JWT_SECRET: "a-secret-of-this-test" };
      // Before: the API runs the schedule in process (its stop waits for the first tick enqueued).
      const before = await serveProject(root, "src/main.ts", env);
      assert.equal(await before.stop(), 0, before.output());
      assert.equal(await jobRows(db.sql), 1, "the API scheduled the job's tick");
      await db.sql.unsafe("delete from notifications.background_jobs");

      await kit(root, "worker");
      const config = JSON.parse(await readFile(join(root, "kit.config.json"), "utf8"));
      assert.equal(config.worker, "separate");
      const api = await serveProject(root, "src/main.ts", env);
      assert.match(api.output(), /jobs PostgreSQL, run by apps\/worker\)/);
      assert.equal(await api.stop(), 0, api.output());
      assert.equal(await jobRows(db.sql), 0, "the API started no worker and no schedule");

      await runWorker(root, env);
      assert.equal(await jobRows(db.sql), 1, "apps/worker scheduled the job's tick");
    } finally {
      await db.drop();
    }
  },
});
