import assert from "node:assert/strict";
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
