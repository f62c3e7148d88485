import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { initializedProject as initialized, projectTree as tree, quietly } from "./test_project.ts";

Deno.test("kit init lays out a project whose specs pass straight away, with what the generators add", async () => {
  const dir = await initialized();
  const config = JSON.parse(await readFile(join(dir, "kit.config.json"), "utf8"));
  assert.deepEqual(config.contexts.map((c: { name: string }) => c.name), [
    "identity",
    "notifications",
    "scheduling",
  ]);
  assert.equal(await readFile(join(dir, ".gitignore"), "utf8"), ".kit/\nnode_modules/\ndist/\n");
  const { result } = await quietly(() =>
    main([
      "generate",
      "command",
      "scheduling",
      "CancelAppointment",
      "--permission",
      "appointment.cancel",
    ], dir)
  );
  assert.equal(result, 0);
  // A use case takes inputs: the worker adds them to the command and its spec by hand.
  const cancelDir = join(dir, "src/contexts/scheduling/application/commands/cancel-appointment");
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(join(cancelDir, file), "utf8");
    assert.ok(text.includes(from), `${file} holds ${from}`);
    await Deno.writeTextFile(join(cancelDir, file), text.replaceAll(from, to));
  };
  await edit(
    "cancel-appointment.command.ts",
    "constructor(actor: Actor) {",
    "constructor(actor: Actor, readonly appointmentId: string, readonly at: Date) {",
  );
  // Its spec makes it in one place (kit's part; a Date is no input kit gives a value).
  await edit(
    "cancel-appointment.spec.ts",
    "return new CancelAppointment(actor);",
    'return new CancelAppointment(actor, "a1", new Date());',
  );
  // The worker formats what it edited by hand.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", cancelDir], cwd: dir })
    .output();
  const refused = await quietly(() =>
    main(["generate", "background-job", "scheduling", "X", "--command", "Nope"], dir)
  );
  assert.match(refused.stderr[0]!, /Unknown command 'Nope' in context 'scheduling'/);
  for (
    const args of [
      ["generate", "aggregate", "scheduling", "Appointment"],
      ["generate", "port", "scheduling", "Appointments"],
      ["generate", "background-job", "scheduling", "CancelLater", "--command", "CancelAppointment"],
      ["generate", "query", "scheduling", "ReadAgenda", "--permission", "agenda.read"],
      ["generate", "query", "notifications", "SearchNotifications", "--search"],
      ["generate", "command", "identity", "RegisterPerson"],
      ["generate", "integration-event", "identity", "PersonRegistered"],
      ["generate", "route-group", "scheduling", "AppointmentRoutes"],
      ["generate", "worker"],
      ["generate", "adr", "scheduling", "KeepSlotsInMemory", "--deviation"],
      ["generate", "route-group", "identity", "AdminRoutes", "--role", "admin"],
      [
        "generate",
        "job",
        "identity",
        "PurgeInvitations",
        "--every",
        "1h",
        "--command",
        "RegisterPerson",
      ],
      ["generate", "integration-handler", "notifications", "PersonRegistered"],
    ]
  ) {
    const run = await quietly(() => main(args, dir));
    assert.equal(run.result, 0, `${args.join(" ")}: ${run.stderr.join(" ")}`);
  }
  const job = await readFile(
    join(dir, "src/contexts/scheduling/application/background/cancel-later.job.ts"),
    "utf8",
  );
  assert.match(job, /readonly at: string;/, "a date travels as ISO text");
  const roles = await readFile(join(dir, "src/platform/auth/role.ts"), "utf8");
  assert.match(roles, /"?admin"?: \[\],/, "a new role joins the platform's grants");
  const deviations = JSON.parse(await readFile(join(dir, "kit.config.json"), "utf8")).deviations;
  assert.deepEqual(deviations, [{
    context: "scheduling",
    adr: "src/contexts/scheduling/docs/adr/0001-keep-slots-in-memory.md",
  }]);
  assert.match(
    job,
    /new CancelAppointment\(\s*execution\.actor,\s*payload\.appointmentId,\s*new Date\(payload\.at\),?\s*\)/,
  );
  // Its specs pass (end_to_end_test.ts runs verify too, after every kind).
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "test"],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `deno task test failed:\n${text}`);
  assert.match(text, /CancelAppointment is refused to an actor without appointment.cancel/);
  assert.match(text, /ReadAgenda is refused to an actor without agenda.read/);
  assert.match(text, /SearchNotifications runs through the query bus/);
  assert.match(text, /CancelLater enqueued by a user runs what is due as that user/);
  assert.match(text, /Appointment.create keeps its id/);
  assert.match(text, /PersonRegistered is built from its declaration/);
  assert.match(text, /PurgeInvitations runs once per tick of 1h/);
  assert.match(text, /AdminRoutes prefixes its routes with \/admins and guards them/);
  assert.match(text, /the application composes with every context's module/);
});

Deno.test("Bad input gets one clear line, a non-zero exit, and no file changed", async () => {
  const dir = await initialized();
  await quietly(() => main(["generate", "command", "scheduling", "Book"], dir));
  const before = await tree(dir);
  const cases: [string[], RegExp][] = [
    [["generate", "widget", "scheduling", "X"], /^kit: Unknown kind 'widget'/],
    [
      ["generate", "command", "billing", "X"],
      /^kit: Unknown context 'billing': the contexts are identity, notifications, scheduling$/,
    ],
    [["generate", "command", "scheduling", "cancel_it"], /^kit: Invalid command name 'cancel_it'/],
    [
      ["generate", "command", "scheduling", "X", "--permission", "cancel"],
      /^kit: Invalid --permission 'cancel'/,
    ],
    [["generate", "context", "identity"], /^kit: Context 'identity' exists already$/],
    [
      ["generate", "context", "billing", "--local-only"],
      /^kit: kit generate context would write 4 shared file\(s\): kit.config.json, src\/platform\/compose-application.ts, docs\/context-map.md, \.dependency-cruiser\.cjs; nothing was written/,
    ],
    [["frobnicate"], /^kit: Unknown command 'frobnicate'/],
  ];
  for (const [args, message] of cases) {
    const { result, stderr } = await quietly(() => main(args, dir));
    assert.equal(result, 1, args.join(" "));
    assert.equal(stderr.length, 1, args.join(" "));
    assert.match(stderr[0]!, message);
  }
  const { result, stderr } = await quietly(() =>
    main(["generate", "command", "scheduling", "Book"], dir)
  );
  assert.equal(result, 1);
  assert.match(stderr[0]!, /Command 'Book' exists already in context 'scheduling'/);
  const outside = await Deno.makeTempDir();
  const refused = await quietly(() => main(["generate", "command", "scheduling", "X"], outside));
  assert.match(refused.stderr[0]!, /^kit: Not a kit project/);
  assert.deepEqual(Object.keys(await tree(outside)), []);
  const after = await tree(dir);
  for (const path of Object.keys(before)) {
    assert.equal(after[path], before[path], `${path} changed`);
  }
});

Deno.test("Generators are deterministic: two orders give the same bytes", async () => {
  const first = await initialized();
  const second = await initialized();
  const run = (dir: string, order: string[]) =>
    quietly(async () => {
      for (const name of order) {
        await main([
          "generate",
          "command",
          "scheduling",
          name,
          "--permission",
          `${name.toLowerCase()}.run`,
        ], dir);
      }
      await main([
        "generate",
        "context",
        order.length > 2 ? "billing" : "billing",
        "--kind",
        "supporting",
      ], dir);
    });
  await run(first, ["Alpha", "Beta", "Gamma"]);
  await run(second, ["Gamma", "Alpha", "Beta"]);
  const a = await tree(first);
  const b = await tree(second);
  // The project name comes from the folder: the only difference allowed.
  const unnamed = (text: string) => ({ ...JSON.parse(text), name: undefined });
  assert.deepEqual(unnamed(a["kit.config.json"]!), unnamed(b["kit.config.json"]!));
  delete a["kit.config.json"];
  delete b["kit.config.json"];
  // And the title of the project's README.
  for (const t of [a, b]) t["README.md"] = t["README.md"]!.replace(/^# .+\n/, "");
  assert.deepEqual(a, b);
});

Deno.test("kit generate --help --json lists every kind with writesShared and its shared files", async () => {
  let printed = "";
  const log = console.log;
  console.log = (text: string) => void (printed += text);
  try {
    assert.equal(await main(["generate", "--help", "--json"]), 0);
  } finally {
    console.log = log;
  }
  const { kinds } = JSON.parse(printed);
  assert.equal(kinds.length, 21);
  const rekey = kinds.find((k: { kind: string }) => k.kind === "rekey");
  assert.equal(rekey.writesShared, true, "the migration list");
  assert.deepEqual(rekey.sharedFiles, ["src/platform/database/migrations.ts"]);
  const manager = kinds.find((k: { kind: string }) => k.kind === "process-manager");
  assert.equal(manager.writesShared, false, "only a platform without a process store");
  assert.deepEqual(manager.sharedFiles, [
    "src/platform/compose-application.ts",
    "src/platform/database/migrate.ts",
  ]);
  const context = kinds.find((k: { kind: string }) => k.kind === "context");
  assert.equal(context.writesShared, true);
  assert.deepEqual(context.sharedFiles, [
    "kit.config.json",
    "src/platform/compose-application.ts",
    "docs/context-map.md",
    ".dependency-cruiser.cjs",
  ]);
  const gateway = kinds.find((k: { kind: string }) => k.kind === "gateway");
  assert.ok(gateway.sharedFiles.includes(".dependency-cruiser.cjs"));
});
