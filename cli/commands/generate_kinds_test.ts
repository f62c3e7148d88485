import assert from "node:assert/strict";
import { planners } from "../generators/planners.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { createTestDatabase } from "./served_project.ts";
import { generatorKinds } from "../generators/catalog.ts";
import { initializedProject, kitIn as kit, projectTree, quietly, runIn } from "./test_project.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");

/** Runs each bad input: one line on stderr, exit 1, and no file changed. */
async function refuses(dir: string, cases: [string[], RegExp][]): Promise<void> {
  const before = await projectTree(dir);
  for (const [args, message] of cases) {
    const { result, stderr } = await quietly(() => main(args, dir));
    assert.equal(result, 1, args.join(" "));
    assert.equal(stderr.length, 1, args.join(" "));
    assert.match(stderr[0]!, message);
  }
  assert.deepEqual(await projectTree(dir), before);
}

async function generates(dir: string, args: string[]): Promise<void> {
  const { result, stderr } = await quietly(() => main(args, dir));
  assert.equal(result, 0, `${args.join(" ")}: ${stderr.join(" ")}`);
}

Deno.test("kit generate service, policy, gateway, adapter, command --aggregate: specs that pass, bad input refused", async () => {
  const dir = await initializedProject();
  await generates(dir, ["generate", "service", "scheduling"]);
  const config = JSON.parse(await readFile(join(dir, "kit.config.json"), "utf8"));
  assert.deepEqual(config.services, [{ name: "scheduling", contexts: ["scheduling"] }]);
  await refuses(dir, [
    [["generate", "service", "scheduling"], /^kit: Service 'scheduling' exists already/],
    [["generate", "service", "billing"], /^kit: Unknown context 'billing'/],
    [
      ["generate", "service", "identity", "--local-only"],
      /^kit: kit generate service would write 4 shared file\(s\): apps\/identity\/service.ts, apps\/identity\/main.ts, test\/services\/identity.spec.ts, kit.config.json; nothing/,
    ],
  ]);

  const compose = join(dir, "src/platform/compose-application.ts");
  const handWritten = (await readFile(compose, "utf8")) + "\n// hand-written, kept as is\n";
  await Deno.writeTextFile(compose, handWritten);
  await generates(dir, [
    "generate",
    "policy",
    "scheduling",
    "ClearCalendar",
    "--permission",
    "calendar.clear",
  ]);
  await generates(dir, [
    "generate",
    "policy",
    "identity",
    "ReadProfile",
    "--permission",
    "profile.read",
  ]);
  const composed = await readFile(compose, "utf8");
  assert.ok(composed.endsWith("\n// hand-written, kept as is\n"));
  assert.match(composed, /\/\/ kit:begin access-policies\n\s+policies,\n\s+\/\/ kit:end/);
  const list = await readFile(join(dir, "src/platform/auth/access-policies.ts"), "utf8");
  assert.match(list, /\n\s+clearCalendarPolicy,\n\s+readProfilePolicy,\n/);
  assert.match(
    await readFile(join(dir, "src/contexts/scheduling/scheduling.permissions.ts"), "utf8"),
    /"calendar.clear"/,
  );
  await refuses(dir, [
    [
      ["generate", "policy", "scheduling", "ClearCalendar", "--permission", "calendar.clear"],
      /^kit: Policy 'ClearCalendar' exists already in context 'scheduling'$/,
    ],
    [["generate", "policy", "scheduling", "Other"], /^kit: kit generate policy needs --permission/],
    [
      ["generate", "policy", "scheduling", "bad-name", "--permission", "a.b"],
      /Invalid policy name/,
    ],
    [
      ["generate", "policy", "scheduling", "Other", "--permission", "a.b", "--local-only"],
      // The platform passes its policies already: only the list changes.
      /would write 1 shared file\(s\): src\/platform\/auth\/access-policies.ts; nothing/,
    ],
  ]);

  await generates(dir, ["generate", "gateway", "scheduling", "identity"]);
  await generates(dir, ["generate", "gateway", "notifications", "identity"]);
  const map = await readFile(join(dir, "docs/context-map.md"), "utf8");
  assert.match(map, /identity --> notifications\n\s+identity --> scheduling/);
  assert.match(map, /\| identity +\| supporting +\| notifications, scheduling +\| +\|/);
  assert.deepEqual(JSON.parse(await readFile(join(dir, "kit.config.json"), "utf8")).relationships, [
    { upstream: "identity", downstream: "notifications" },
    { upstream: "identity", downstream: "scheduling" },
  ]);
  assert.ok((await readFile(compose, "utf8")).endsWith("\n// hand-written, kept as is\n"));
  await refuses(dir, [
    [
      ["generate", "gateway", "scheduling", "identity"],
      /^kit: Gateway 'IdentityGateway' exists already in context 'scheduling'$/,
    ],
    [["generate", "gateway", "scheduling", "billing"], /^kit: Unknown context 'billing'/],
    [["generate", "gateway", "scheduling", "scheduling"], /not upstream of itself/],
    [["generate", "gateway", "scheduling", "Identity"], /Invalid upstream context 'Identity'/],
    [
      ["generate", "gateway", "identity", "scheduling", "--local-only"],
      /would write 4 shared file\(s\): kit.config.json, src\/platform\/compose-application.ts, docs\/context-map.md, \.dependency-cruiser\.cjs; nothing/,
    ],
  ]);

  await generates(dir, ["generate", "port", "scheduling", "Calendars"]);
  await generates(dir, ["generate", "port", "identity", "Directory"]);
  await generates(dir, ["generate", "adapter", "scheduling", "Calendars"]);
  await generates(dir, [
    "generate",
    "adapter",
    "identity",
    "Directory",
    "--kind",
    "external",
    "--decorators",
  ]);
  const providersRegion = (await readFile(compose, "utf8")).split("// kit:begin providers")[1]!
    .split("// kit:end")[0]!.trim().split(/\s+/);
  assert.deepEqual(providersRegion, [
    "identityDirectoryAdapter,",
    "notificationsIdentityGateway,",
    "schedulingCalendarsAdapter,",
    "schedulingIdentityGateway,",
  ]);
  assert.ok((await readFile(compose, "utf8")).endsWith("\n// hand-written, kept as is\n"));
  await refuses(dir, [
    [
      ["generate", "adapter", "scheduling", "Calendars"],
      /^kit: An adapter of 'Calendars' exists already in context 'scheduling'$/,
    ],
    [["generate", "adapter", "scheduling", "Rooms"], /^kit: Port 'Rooms' does not exist/],
    [
      ["generate", "adapter", "scheduling", "Calendars", "--kind", "cloud"],
      /Invalid --kind 'cloud'/,
    ],
    // Bad input is refused as such with --local-only too (plan_truth_test.ts: an adapter's
    // --local-only refusal).
    [
      ["generate", "adapter", "scheduling", "Calendars", "--local-only"],
      /^kit: An adapter of 'Calendars' exists already in context 'scheduling'$/,
    ],
  ]);

  await generates(dir, ["generate", "aggregate", "scheduling", "Appointment"]);
  await refuses(dir, [
    [
      ["generate", "command", "scheduling", "Cancel", "--aggregate", "Appointment", "--local-only"],
      /would write 2 shared file\(s\): src\/platform\/database\/migrations.ts, src\/platform\/compose-application.ts; nothing/,
    ],
    [
      ["generate", "command", "scheduling", "Cancel", "--aggregate", "Slot"],
      /^kit: Aggregate 'Slot' does not exist in context 'scheduling'/,
    ],
    [
      ["generate", "query", "scheduling", "Cancel", "--aggregate", "Appointment", "--creates"],
      /^kit: --creates applies to commands with --aggregate <Aggregate> only$/,
    ],
  ]);
  await generates(dir, [
    "generate",
    "command",
    "scheduling",
    "CancelAppointment",
    "--aggregate",
    "Appointment",
    "--permission",
    "appointment.cancel",
  ]);
  // Its repository exists now: a second command on the aggregate writes inside its context only.
  await generates(dir, [
    "generate",
    "command",
    "scheduling",
    "ConfirmAppointment",
    "--aggregate",
    "Appointment",
    "--local-only",
  ]);
  // Without --aggregate a command writes inside its context only.
  await generates(dir, ["generate", "command", "identity", "Register", "--local-only"]);
  assert.match(
    await readFile(join(dir, "src/contexts/scheduling/scheduling.dependencies.ts"), "utf8"),
    /\[CancelAppointmentHandler, \[AppointmentRepository\]\]/,
  );
  const withRepository = await readFile(compose, "utf8");
  assert.equal(withRepository.match(/^\s+schedulingAppointmentRepository,$/gm)?.length, 1);
  // The handler saves at the version it loaded; retrying on a conflict is the command's choice.
  const cancel =
    "src/contexts/scheduling/application/commands/cancel-appointment/cancel-appointment";
  assert.match(
    await readFile(join(dir, `${cancel}.handler.ts`), "utf8"),
    /const loaded = await this\.appointments\.get\(command\.appointmentId\);[^]*await this\.appointments\.save\(appointment, loaded\.version\);/,
  );
  const command = await readFile(join(dir, `${cancel}.command.ts`), "utf8");
  assert.match(command, /Declare\s+(\* )?`@RetryOnConflict\(\)`/);
  assert.doesNotMatch(command, /^@RetryOnConflict/m);
  assert.match(
    await readFile(
      join(dir, "src/contexts/scheduling/application/policies/clear-calendar.policy.ts"),
      "utf8",
    ),
    /refuse unless its tenant[^]*is\s+(\/\/ )?execution\.tenantId/,
  );

  // With DATABASE_URL, the project runs on a database of its own, dropped after.
  const database = databaseUrl ? await createTestDatabase(databaseUrl) : undefined;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  let text: string;
  try {
    text = await runIn(dir, Deno.execPath(), ["test", "-A"], env);
  } finally {
    await database?.drop();
  }
  assert.match(text, /the scheduling service composes with its context alone \.\.\. ok/);
  assert.match(
    text,
    /ClearCalendar decides calendar.clear and is registered with the platform \.\.\. ok/,
  );
  for (
    const guarantee of [
      "loads the Appointment and saves it at its next version",
      "of another tenant's Appointment is refused as not found, and changes nothing",
      "by a caller who names none of their tenants is refused \\(TENANT_REQUIRED\\)",
      "over other work's save is refused \\(CONCURRENT_UPDATE\\), the other save stands",
    ]
  ) {
    for (const name of ["CancelAppointment", "ConfirmAppointment"]) {
      assert.match(text, new RegExp(`${name} ${guarantee} \\.\\.\\. ok`));
    }
  }
  assert.match(text, /ok \| \d+ passed (\(\d+ steps\) )?\| 0 failed/);
  assert.match(
    text,
    /ReadProfile decides profile.read and is registered with the platform \.\.\. ok/,
  );
});

Deno.test("Shared regions written by gateway, adapter and policy give the same bytes in any order", async () => {
  const steps: string[][] = [
    ["generate", "gateway", "scheduling", "identity"],
    ["generate", "gateway", "notifications", "identity"],
    ["generate", "adapter", "scheduling", "Calendars"],
    ["generate", "adapter", "identity", "Directory", "--kind", "external"],
    ["generate", "policy", "scheduling", "ClearCalendar", "--permission", "calendar.clear"],
    ["generate", "policy", "identity", "ReadProfile", "--permission", "profile.read"],
  ];
  const ports = [
    ["generate", "port", "scheduling", "Calendars"],
    ["generate", "port", "identity", "Directory"],
  ];
  const trees = [];
  for (const order of [steps, [...steps].reverse()]) {
    const dir = await initializedProject();
    for (const args of [...ports, ...order]) await generates(dir, args);
    const tree = await projectTree(dir);
    const config = JSON.parse(tree["kit.config.json"]!);
    tree["kit.config.json"] = JSON.stringify({ ...config, name: undefined });
    tree["README.md"] = tree["README.md"]!.replace(/^# .+\n/, ""); // its title is the name
    trees.push(tree);
  }
  assert.deepEqual(trees[0], trees[1]);
});

Deno.test("kit generate --help --json: every kind has a planner, command --aggregate names its shared files", async () => {
  let printed = "";
  const log = console.log;
  console.log = (text: string) => void (printed += text);
  try {
    assert.equal(await main(["generate", "--help", "--json"]), 0);
  } finally {
    console.log = log;
  }
  const { kinds } = JSON.parse(printed);
  // Every kind the catalog lists runs (a planner each), and no planner is left unlisted.
  assert.deepEqual(
    Object.keys(planners).sort(),
    kinds.map((k: { kind: string }) => k.kind).sort(),
  );
  const command = kinds.find((k: { kind: string }) => k.kind === "command");
  assert.equal(command.writesShared, false);
  assert.equal(command.sharedWhen, "--aggregate, --grant");
  assert.deepEqual(command.sharedFiles, [
    "src/platform/database/migrations.ts",
    "src/platform/compose-application.ts",
    "src/platform/auth/role.ts",
  ]);
  // A route writes inside its context (its controller, its spec, the derived files), and with
  // --function the platform's registry of function routes.
  const route = kinds.find((k: { kind: string }) => k.kind === "route");
  assert.deepEqual([route.writesShared, route.sharedWhen, route.sharedFiles], [
    false,
    "--function",
    ["src/platform/function-routes.ts"],
  ]);
  // No phantom: these write inside their context only (cli/commands/plan_truth_test.ts runs them).
  for (const name of ["job", "background-job", "integration-event"]) {
    const kind = kinds.find((k: { kind: string }) => k.kind === name);
    assert.deepEqual([kind.writesShared, kind.sharedFiles], [false, []], name);
  }
  const routeGroup = kinds.find((k: { kind: string }) => k.kind === "route-group");
  assert.deepEqual([routeGroup.writesShared, routeGroup.sharedWhen], [false, "--role"]);
  assert.deepEqual(routeGroup.sharedWrites, [{
    file: "src/platform/auth/role.ts",
    option: "--role",
    when: "it names a role the platform does not grant yet",
  }]);
  const adr = kinds.find((k: { kind: string }) => k.kind === "adr");
  // A context's decisions live in the context: only a deviation, recorded in kit.config.json,
  // is shared.
  assert.deepEqual([adr.writesShared, adr.sharedWrites], [false, [
    { file: "kit.config.json", option: "--deviation" },
  ]]);
  const worker = kinds.find((k: { kind: string }) => k.kind === "worker");
  // It records "worker": "separate" in kit.config.json: the API then only enqueues; and its task
  // in deno.json (deno task worker).
  assert.deepEqual(worker.sharedFiles, [
    "apps/worker/main.ts",
    "deno.json",
    "apps/worker/main.node.ts",
    "kit.config.json",
  ]);
  const handler = kinds.find((k: { kind: string }) => k.kind === "integration-handler");
  assert.deepEqual([handler.writesShared, handler.sharedFiles], [false, ["docs/context-map.md"]]);
  assert.equal(handler.sharedWrites[0].outsideWorktree, true, "the conductor's tree only");
  const repository = kinds.find((k: { kind: string }) => k.kind === "repository");
  assert.deepEqual(repository.sharedFiles, [
    "src/platform/database/migrations.ts",
    "src/platform/compose-application.ts",
  ]);
});

Deno.test("every kind given too few names answers its usage from the catalog, in one line, writing nothing", async () => {
  const dir = await initializedProject();
  try {
    const before = await projectTree(dir);
    for (const kind of generatorKinds.filter((k) => k.usage.startsWith("<"))) {
      const run = await kit(dir, "generate", kind.kind);
      assert.equal(run.result, 1, kind.kind);
      assert.equal(run.out, `kit: Usage: kit generate ${kind.kind} ${kind.usage}`);
      // Given the names its usage lists (here unknown ones), it goes past the usage check.
      const names = kind.usage.split(" ").filter((part, i, all) =>
        part.startsWith("<") && all.slice(0, i).every((p) => p.startsWith("<"))
      ).map(() => "Nowhere");
      const named = await kit(dir, "generate", kind.kind, ...names);
      assert.doesNotMatch(named.out, /Usage:/, `${kind.kind} ${names.join(" ")}`);
    }
    assert.deepEqual(await projectTree(dir), before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
