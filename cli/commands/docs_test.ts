import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { docs } from "./docs.ts";
import { generate } from "./generate.ts";
import { initProject } from "./init.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("kit docs --check passes after init and generators, fails naming a hand-edited derived file", async () => {
  const root = await Deno.makeTempDir({ prefix: "kit-docs-" });
  await initProject(root, { contexts: ["scheduling:core", "identity:supporting"], link: checkout });
  await docs(root, { check: true });
  await generate(root, {
    kind: "command",
    positionals: ["scheduling", "CancelAppointment"],
    options: { permission: "appointment.cancel" },
  });
  await docs(root, { check: true });
  const barrel = join(root, "src/contexts/scheduling/scheduling.declarations.ts");
  assert.match(await readFile(barrel, "utf8"), /CancelAppointmentHandler,/);
  await writeFile(
    barrel,
    (await readFile(barrel, "utf8")).replace("  CancelAppointmentHandler,\n", ""),
  );
  await assert.rejects(
    () => docs(root, { check: true }),
    {
      message: "docs --check: 1 derived file(s) stale\n" +
        "error declarations/barrel-current: the barrel of scheduling " +
        "(src/contexts/scheduling/scheduling.declarations.ts) is stale (run 'kit docs')",
    },
  );
  assert.deepEqual(await docs(root), ["src/contexts/scheduling/scheduling.declarations.ts"]);
  await docs(root, { check: true });
});

Deno.test("kit docs derives the dependency manifest from constructor parameter types", async () => {
  const root = await Deno.makeTempDir({ prefix: "kit-docs-" });
  await initProject(root, { contexts: ["scheduling:core"], link: checkout });
  await generate(root, {
    kind: "command",
    positionals: ["scheduling", "BookAppointment"],
    options: {},
  });
  const ports = join(root, "src/contexts/scheduling/application/ports/appointments.ts");
  await writeFile(
    ports,
    `import { token } from "@kit/kernel";

/** Where appointments are kept. */
export interface Appointments {
  count(): Promise<number>;
}
export const Appointments = token<Appointments>("Appointments");
`,
  );
  const handler = join(
    root,
    "src/contexts/scheduling/application/commands/book-appointment/book-appointment.handler.ts",
  );
  await writeFile(
    handler,
    `import { type CommandBus, Handles } from "@kit/kernel";
import type { Appointments } from "../../ports/appointments.ts";
import { BookAppointment } from "./book-appointment.command.ts";

/** Runs BookAppointment. */
@Handles(BookAppointment)
export class BookAppointmentHandler {
  constructor(private readonly appointments: Appointments, private readonly commands: CommandBus) {}
  async handle(_command: BookAppointment): Promise<void> {
    void this.commands;
    await this.appointments.count();
  }
}
`,
  );
  await docs(root);
  const manifest = await readFile(
    join(root, "src/contexts/scheduling/scheduling.dependencies.ts"),
    "utf8",
  );
  assert.match(
    manifest,
    /import \{ Appointments \} from "\.\/application\/ports\/appointments\.ts";/,
  );
  assert.match(manifest, /import \{ CommandBus, type DependencyManifest \} from "@kit\/kernel";/);
  assert.match(manifest, /\[BookAppointmentHandler, \[Appointments, CommandBus\]\],/);
  // The context's module reads the manifest (and the barrel, its handler, its port): checking
  // it type-checks every file this test wrote or derived, not the rest of a fresh project.
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["check", "src/contexts/scheduling/scheduling.module.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
});

Deno.test("two decisions of one context merged under one number: docs --check names them, kit docs renumbers the later one", async () => {
  const root = await Deno.makeTempDir({ prefix: "kit-docs-" });
  try {
    await initProject(root, { contexts: ["scheduling:core"], link: checkout });
    await generate(root, { kind: "adr", positionals: ["scheduling", "KeepSlots"], options: {} });
    const folder = "src/contexts/scheduling/docs/adr";
    const first = await readFile(join(root, folder, "0001-keep-slots.md"), "utf8");
    assert.match(first, /^# 0001\. Keep Slots$/m);
    // What a merge of another worker's branch brings: its decision numbered 0001 too.
    await writeFile(
      join(root, folder, "0001-rooms-apart.md"),
      first.replace("Keep Slots", "Rooms Apart"),
    );
    await assert.rejects(() => docs(root, { check: true }), (error: Error) => {
      assert.match(
        error.message,
        /error adr\/numbers-unique: src\/contexts\/scheduling\/docs\/adr\/0001-rooms-apart\.md shares its number with another decision of scheduling/,
      );
      return true;
    });
    await docs(root);
    const renumbered = await readFile(join(root, folder, "0002-rooms-apart.md"), "utf8");
    assert.match(renumbered, /^# 0002\. Rooms Apart$/m);
    assert.equal(await readFile(join(root, folder, "0001-keep-slots.md"), "utf8"), first);
    await assert.rejects(() => Deno.stat(join(root, folder, "0001-rooms-apart.md")));
    await docs(root, { check: true });
    await generate(root, { kind: "adr", positionals: ["scheduling", "Third"], options: {} });
    await Deno.stat(join(root, folder, "0003-third.md"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("docs --check from the cache still sees a source changed and a derived file edited, after docs or a generator", async () => {
  const root = await Deno.makeTempDir({ prefix: "kit-docs-" });
  try {
    await initProject(root, { contexts: ["scheduling:core", "identity:generic"], link: checkout });
    await generate(root, { kind: "command", positionals: ["scheduling", "Cancel"], options: {} });
    await docs(root, { check: true }); // records the cache
    await docs(root, { check: true }); // answered from it
    const handler = join(
      root,
      "src/contexts/scheduling/application/commands/cancel/cancel.handler.ts",
    );
    const original = await readFile(handler, "utf8");
    await writeFile(handler, original.replaceAll("CancelHandler", "CancellationHandler"));
    await assert.rejects(() => docs(root, { check: true }), /barrel of scheduling/);
    await writeFile(handler, original);
    await docs(root, { check: true });
    // A generator records its derivation too: another context's barrel edited after it is seen.
    await generate(root, { kind: "command", positionals: ["scheduling", "Hold"], options: {} });
    const identity = join(root, "src/contexts/identity/identity.declarations.ts");
    const barrel = await readFile(identity, "utf8");
    await writeFile(identity, barrel + "// edited\n");
    await assert.rejects(() => docs(root, { check: true }), /barrel of identity/);
    await writeFile(identity, barrel);
    await docs(root, { check: true });
    const context = join(root, "src/contexts/scheduling/CONTEXT.md");
    const text = await readFile(context, "utf8");
    await writeFile(context, text.replace("- Handlers: CancelHandler", "- Handlers: Other"));
    await assert.rejects(() => docs(root, { check: true }), /CONTEXT\.md of scheduling is stale/);
    assert.deepEqual(await docs(root), ["src/contexts/scheduling/CONTEXT.md"]);
    await docs(root, { check: true });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
