import assert from "node:assert/strict";
import { join } from "node:path";
import authz from "./authz_plugin.ts";
import presentation from "./presentation_plugin.ts";

const messages = (plugin: Deno.lint.Plugin, file: string, source: string) =>
  Deno.lint.runPlugin(plugin, file, source).map((d) => `${d.id}: ${d.message}`);

Deno.test("authz/declared reports a route with no group and no guard", () => {
  const found = messages(
    authz,
    "src/contexts/a/presentation/http/open.controller.ts",
    `@Controller({ method: "GET", path: "/x", response: { status: 200 } })
export class Open { handle() {} }
@Controller({ method: "GET", path: "/y", guards: [], response: { status: 200 } })
export class Empty { handle() {} }
@Controller({ method: "GET", path: "/z", guards: [Public], response: { status: 200 } })
export class Fine { handle() {} }
@Controller({ group: Appointments, method: "GET", path: "/w", response: { status: 200 } })
export class Grouped { handle() {} }`,
  );
  assert.equal(found.length, 2, found.join("\n"));
  assert.match(found[0]!, /^authz\/declared: Route 'Open' declares no group and no guard/);
  assert.match(found[1]!, /Route 'Empty'/);
});

Deno.test("authz/declared reports a route constant (controllerRoute) with no group and no guard", () => {
  const found = messages(
    authz,
    "src/contexts/a/presentation/http/open.controller.ts",
    `const openRoute = controllerRoute({ method: "GET", path: "/x", response: { status: 200 } });
const emptyRoute = controllerRoute({ method: "GET", path: "/y", guards: [], response: { status: 200 } });
const fineRoute = controllerRoute({ method: "GET", path: "/z", guards: [Public], response: { status: 200 } });
const groupedRoute = controllerRoute({ group: Appointments, method: "GET", path: "/w", response: { status: 200 } });
const spreadRoute = controllerRoute({ ...groupedRoute, path: "/v" });
@Controller(openRoute)
export class Open { handle() {} }
@Controller(controllerRoute({ method: "GET", path: "/u", response: { status: 200 } }))
export class Inline { handle() {} }`,
  );
  assert.equal(found.length, 3, found.join("\n"));
  assert.match(found[0]!, /^authz\/declared: Route 'openRoute' declares no group and no guard/);
  assert.match(found[1]!, /Route 'emptyRoute'/);
  assert.match(found[2]!, /Route 'Inline'/);
});

Deno.test("authz/declared reports an authorized message without @Requires", () => {
  const found = messages(
    authz,
    "c.command.ts",
    `export class Loose extends AuthorizedCommand<void> {}
@Requires(p["x.y"]) export class Tight extends AuthorizedQuery<number> {}
export class Plain extends Command<void> {}`,
  );
  assert.deepEqual(found, [
    "authz/declared: 'Loose' extends AuthorizedCommand but declares no permission: decorate it with @Requires(...)",
  ]);
});

/**
 * A project of the given style with one context's module file, declaring with the builder the
 * permissions of ClearCalendar (from its file) and ReadCalendar (imported under another name), and
 * only the handler of Loose; answers its root.
 */
async function projectWithModule(style: "builder" | "decorators"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "kit-authz-lint-" });
  const context = join(dir, "src/contexts/scheduling");
  await Deno.mkdir(context, { recursive: true });
  await Deno.writeTextFile(
    join(dir, "kit.config.json"),
    JSON.stringify({ name: "clinic", declarations: style }),
  );
  await Deno.writeTextFile(
    join(context, "scheduling.module.ts"),
    `import { defineModule, type Module } from "@kit/kernel";
import { schedulingPermissions } from "./scheduling.permissions.ts";
// kit:begin builder-imports
import { ClearCalendar } from "./application/commands/clear-calendar/clear-calendar.command.ts";
import { ReadCalendar as Read } from "./application/queries/read-calendar/read-calendar.query.ts";
import { Loose } from "./application/commands/loose/loose.command.ts";
import { LooseHandler } from "./application/commands/loose/loose.handler.ts";
// kit:end

// builder.requires(Loose, schedulingPermissions["calendar.clear"]);
/* builder.requires(Loose, schedulingPermissions["calendar.clear"]); */
export const schedulingModule: Module = defineModule("scheduling", {}, (builder) => {
  // kit:begin builder-declarations
  builder.handler(Loose, LooseHandler);
  builder.requires(ClearCalendar, schedulingPermissions["calendar.clear"], {
    resource: (command) => ({ type: "calendar", id: command.calendarId }),
  });
  builder.requires(Read, schedulingPermissions["calendar.read"]);
  // kit:end
});
`,
  );
  return dir;
}

const messageFiles = {
  clear: "src/contexts/scheduling/application/commands/clear-calendar/clear-calendar.command.ts",
  read: "src/contexts/scheduling/application/queries/read-calendar/read-calendar.query.ts",
  loose: "src/contexts/scheduling/application/commands/loose/loose.command.ts",
  // Another file's ClearCalendar: the module's builder.requires names the one it imports.
  other: "src/contexts/scheduling/application/commands/other/clear-calendar.command.ts",
};

Deno.test("authz/declared in the builder style: an authorized message is accepted when its module file declares its permission with builder.requires", async () => {
  const dir = await projectWithModule("builder");
  try {
    const lint = (file: string, source: string) => messages(authz, join(dir, file), source);
    assert.deepEqual(
      lint(messageFiles.clear, `export class ClearCalendar extends AuthorizedCommand<void> {}`),
      [],
    );
    assert.deepEqual(
      lint(messageFiles.read, `export class ReadCalendar extends AuthorizedQuery<number> {}`),
      [],
      "imported under another name",
    );
    assert.deepEqual(
      lint(messageFiles.loose, `export class Loose extends AuthorizedCommand<void> {}`),
      [
        "authz/declared: 'Loose' extends AuthorizedCommand but declares no permission: declare it in its module file (src/contexts/scheduling/scheduling.module.ts) with builder.requires(Loose, permission)",
      ],
      "a handler and commented-out lines are no permission",
    );
    assert.equal(
      lint(messageFiles.other, `export class ClearCalendar extends AuthorizedCommand<void> {}`)
        .length,
      1,
      "the module declares the permission of another file's class of that name",
    );
    assert.deepEqual(
      lint(
        messageFiles.loose,
        `@Requires(p["x.y"]) export class Loose extends AuthorizedCommand<void> {}`,
      ),
      [],
      "the decorator still declares it in a builder-style project",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("authz/declared in the decorator style: the decorator is asked for, and a builder declaration is accepted too", async () => {
  const dir = await projectWithModule("decorators");
  try {
    const lint = (file: string, source: string) => messages(authz, join(dir, file), source);
    assert.deepEqual(
      lint(messageFiles.loose, `export class Loose extends AuthorizedCommand<void> {}`),
      [
        "authz/declared: 'Loose' extends AuthorizedCommand but declares no permission: decorate it with @Requires(...)",
      ],
    );
    assert.deepEqual(
      lint(messageFiles.clear, `export class ClearCalendar extends AuthorizedCommand<void> {}`),
      [],
      "both styles compose in one module",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("presentation/guard-at-the-edge reports a guard reaching the domain or a repository", () => {
  const guard = `import { ApiKeys } from "../../application/ports/api-keys.ts";
import { Appointment } from "../../domain/appointment.ts";
import { AppointmentRepository } from "../../application/ports/appointment-repository.ts";
@Guard() export class Owner { check() {} }`;
  const found = messages(presentation, "src/contexts/a/presentation/http/owner.guard.ts", guard);
  assert.equal(found.length, 2, found.join("\n"));
  assert.match(found[0]!, /^presentation\/guard-at-the-edge: .*domain\/appointment\.ts/);
  assert.match(found[1]!, /AppointmentRepository/);
  // A controller file may import what it needs: the rule is about guards.
  assert.deepEqual(
    messages(presentation, "x.controller.ts", `import { A } from "../../domain/a.ts";`),
    [],
  );
});
