import assert from "node:assert/strict";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { createTestDatabase } from "./served_project.ts";
import { initializedProject, projectTree, quietly, runIn } from "./test_project.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");

const migrationsDir = (dir: string, context: string) =>
  join(dir, `src/contexts/${context}/infrastructure/migrations`);

Deno.test({
  name:
    "kit generate repository: tenant-aware and versioned, a table per migration, one ordered list, renumbered on top after a merge",
  ignore: databaseUrl === undefined,
  fn: generatesRepositories,
});

async function generatesRepositories(): Promise<void> {
  const base = await initializedProject();
  for (
    const args of [
      ["generate", "aggregate", "scheduling", "Appointment"],
      ["generate", "aggregate", "identity", "Person"],
      ["generate", "aggregate", "notifications", "Message"],
    ]
  ) assert.equal((await quietly(() => main(args, base))).result, 0);

  // Bad input: one line, exit 1, nothing written.
  const before = await projectTree(base);
  for (
    const [args, message] of [
      [["generate", "repository", "scheduling", "Slot"], /Aggregate 'Slot' does not exist/],
      [["generate", "repository", "billing", "Slot"], /^kit: Unknown context 'billing'/],
      [["generate", "repository", "scheduling", "slot"], /Invalid aggregate name 'slot'/],
      [
        ["generate", "repository", "scheduling", "Appointment", "--local-only"],
        /would write 2 shared file\(s\): src\/platform\/database\/migrations.ts, src\/platform\/compose-application.ts; nothing was written/,
      ],
    ] as [string[], RegExp][]
  ) {
    const { result, stderr } = await quietly(() => main(args, base));
    assert.equal(result, 1, args.join(" "));
    assert.equal(stderr.length, 1);
    assert.match(stderr[0]!, message);
  }
  assert.deepEqual(await projectTree(base), before);

  const first = await quietly(() =>
    main(["generate", "repository", "scheduling", "Appointment"], base)
  );
  assert.equal(first.result, 0, first.stderr.join(" "));
  assert.deepEqual(await readdir(migrationsDir(base, "scheduling")), [
    "0001-create-appointments.ts",
  ]);
  // Every row carries its tenant and its version; every statement names the tenants reached.
  const table = await readFile(
    join(migrationsDir(base, "scheduling"), "0001-create-appointments.ts"),
    "utf8",
  );
  assert.match(table, /^ {2}tenant_id text not null,$/m);
  assert.match(table, /^ {2}version integer not null check \(version > 0\),$/m);
  // Keyed by tenant and id: each tenant names its own ids.
  assert.match(table, /^ {2}primary key \(tenant_id, id\)$/m);
  assert.doesNotMatch(table, /id text primary key/);
  const infrastructure = join(base, "src/contexts/scheduling/infrastructure");
  const onPostgres = await readFile(
    join(infrastructure, "appointment.postgres-repository.ts"),
    "utf8",
  );
  assert.match(onPostgres, /values \(\$\{requireTenant\(\)\}, \$\{id\}/);
  assert.match(onPostgres, /on conflict \(tenant_id, id\) do nothing/);
  assert.match(onPostgres, /throw schedulingErrors\.APPOINTMENT_EXISTS\.error\(/);
  assert.match(onPostgres, /where id = \$\{id\} and \$\{this\.#reachedTenants\(\)\}/);
  assert.match(
    onPostgres,
    /where id = \$\{snapshot\.id\} and version = \$\{version\} and tenant_id = \(/,
  );
  assert.match(onPostgres, /return expectSaved\(result\.count, /);
  assert.match(
    await readFile(join(infrastructure, "appointment.memory-repository.ts"), "utf8"),
    /new InMemoryAggregates<AppointmentSnapshot>\("appointment", \{\n\s+exists: \(id\) =>\s+schedulingErrors\.APPOINTMENT_EXISTS\.error\(/,
  );
  // The duplicate's code is declared once, with its status, in the context's error codes.
  assert.match(
    await readFile(join(base, "src/contexts/scheduling/domain/scheduling-errors.ts"), "utf8"),
    /APPOINTMENT_EXISTS: \{\s+status: 409,\s+description: "The tenant has an Appointment of this id already",?\s+\},/,
  );
  assert.match(
    await readFile(
      join(base, "src/contexts/scheduling/application/ports/appointment-repository.ts"),
      "utf8",
    ),
    /get\(id: string\): Promise<Versioned<Appointment> \| undefined>;[^]*add\(appointment: Appointment\): Promise<number>;[^]*save\(appointment: Appointment, version: number\): Promise<number>;/,
  );
  const again = await quietly(() =>
    main(["generate", "repository", "scheduling", "Appointment"], base)
  );
  assert.equal(again.result, 1);
  assert.match(again.stderr[0]!, /Repository 'AppointmentRepository' exists already/);

  // Two branches from here each add the next migration (0002).
  const other = await Deno.makeTempDir({ prefix: "kit-branch-" });
  await cp(base, other, { recursive: true });
  assert.equal(
    (await quietly(() => main(["generate", "repository", "identity", "Person"], base))).result,
    0,
  );
  assert.equal(
    (await quietly(() => main(["generate", "repository", "notifications", "Message"], other)))
      .result,
    0,
  );
  assert.deepEqual(await readdir(migrationsDir(base, "identity")), ["0002-create-persons.ts"]);
  assert.deepEqual(await readdir(migrationsDir(other, "notifications")), [
    "0002-create-messages.ts",
  ]);
  // The merge: the other branch's files, and both entries in each region of the list.
  await cp(join(other, "src/contexts/notifications"), join(base, "src/contexts/notifications"), {
    recursive: true,
  });
  const listPath = join(base, "src/platform/database/migrations.ts");
  const theirs = await readFile(join(other, "src/platform/database/migrations.ts"), "utf8");
  const theirLines = theirs.split("\n").filter((line) => line.includes("Notifications"));
  assert.equal(theirLines.length, 2);
  let merged = await readFile(listPath, "utf8");
  merged = merged.replace("// kit:end", `${theirLines[0]}\n// kit:end`)
    .replace(/(\n\s*)\/\/ kit:end\n\];/, `$1${theirLines[1]!.trim()}$1// kit:end\n];`);
  await writeFile(listPath, merged);

  // Regenerating the second branch's migration puts it on top of the merged list.
  const renumbered = await quietly(() =>
    main(["generate", "repository", "notifications", "Message"], base)
  );
  assert.equal(renumbered.result, 0, renumbered.stderr.join(" "));
  assert.deepEqual(await readdir(migrationsDir(base, "notifications")), [
    "0003-create-messages.ts",
  ]);
  const moved = await readFile(
    join(migrationsDir(base, "notifications"), "0003-create-messages.ts"),
    "utf8",
  );
  assert.match(
    moved,
    /export const m0003NotificationsCreateMessages: Migration = \{\n {2}version: 3,\n {2}id: "notifications\/create-messages",/,
  );
  const list = await readFile(listPath, "utf8");
  const order = [...list.matchAll(/^ {2}(m\d{4}\w+),$/gm)].map((m) => m[1]);
  assert.deepEqual(order, [
    "m0001SchedulingCreateAppointments",
    "m0002IdentityCreatePersons",
    "m0003NotificationsCreateMessages",
  ]);
  // The hand merge above kept this branch's platform registrations only: they are back.
  const compose = await readFile(join(base, "src/platform/compose-application.ts"), "utf8");
  assert.match(compose, /^\s+notificationsMessageRepository,$/m);
  assert.match(compose, /^\s+notificationsMessageRepositoryOnPostgres,$/m);
  const twice = await quietly(() =>
    main(["generate", "repository", "notifications", "Message"], base)
  );
  assert.match(twice.stderr[0]!, /Repository 'MessageRepository' exists already/);

  // The repository specs pass on memory and on a fresh database.
  // A database of its own on the server of DATABASE_URL, dropped after.
  const database = await createTestDatabase(databaseUrl!);
  try {
    const text = await runIn(base, Deno.execPath(), ["test", "-A"], {
      DATABASE_URL: database.url,
    });
    // Each repository is tenant-aware and versioned, on memory and on PostgreSQL.
    const guarantees = [
      /keeps and finds each \w+ added, at its version/,
      /keeps tenants apart: each tenant's \w+ of one id is its own, the other's never found nor saved/,
      /refuses an id its tenant keeps already \([A-Z_]+_EXISTS\), and keeps the first/,
      /refuses work without a tenant \(TENANT_REQUIRED\): no \w+ is written without one/,
      /refuses a stale save \(CONCURRENT_UPDATE\) and keeps the newer one/,
    ];
    for (const name of ["AppointmentRepository", "PersonRepository", "MessageRepository"]) {
      for (const guarantee of guarantees) {
        assert.match(text, new RegExp(`InMemory${name} ${guarantee.source} \\.\\.\\. ok`));
      }
      const onPostgres = new RegExp(
        `Postgres${name} on a database of its own \\(needs DATABASE_URL\\) \\.\\.\\.\\n` +
          guarantees.map((g) => `  ${g.source} \\.\\.\\. ok.*\\n`).join(""),
      );
      assert.match(text, onPostgres);
    }
    assert.match(text, /ok \| \d+ passed \(\d+ steps\) \| 0 failed/);
  } finally {
    await database.drop();
  }
}
