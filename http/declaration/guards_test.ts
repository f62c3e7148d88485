import assert from "node:assert/strict";
import { z } from "zod";
import {
  CommandBus,
  composeApplication,
  defineModule,
  QueryBus,
  token,
  userActor,
} from "@kit/kernel";
import { Controller, HasScope, httpPlugin, TenantMember, zodSchema } from "../mod.ts";

declare module "@kit/kernel" {
  interface SessionScopes {
    "calendars:read": true;
  }
}

@Controller({
  method: "GET",
  path: "/calendars",
  guards: [HasScope("calendars:read")],
  response: { status: 204 },
})
class ListCalendars {
  handle(): void {}
}

@Controller({
  method: "GET",
  path: "/tenants/:tenantId/report",
  guards: [TenantMember],
  params: zodSchema(z.object({ tenantId: z.string() })),
  response: { status: 204 },
})
class TenantReport {
  handle(): void {}
}

function app() {
  return composeApplication({
    modules: [defineModule("guards", { declarations: [ListCalendars, TenantReport] })],
    plugins: {
      http: httpPlugin({
        tenantOf: () => undefined,
        authenticators: [{
          authenticate: (r) => {
            const user = r.headers.get("x-user");
            if (user === null) return undefined;
            const [scopes, tenants] = user.split(";");
            return {
              actor: userActor("u1", { tenants: tenants ? tenants.split(",") : [] }),
              session: { scopes: new Set(scopes ? scopes.split(",") : []) },
            };
          },
        }],
      }),
    },
  }).http;
}

Deno.test("HasScope lets through a session granted the scope, 403 otherwise, 401 anonymous", async () => {
  const http = app();
  const get = (user?: string) =>
    http.fetch(
      new Request("http://api.test/calendars", { headers: user ? { "x-user": user } : {} }),
    );
  assert.equal((await get()).status, 401);
  assert.equal((await get("people:read;")).status, 403);
  assert.equal((await get("calendars:read;")).status, 204);
  // @ts-expect-error a misspelt scope does not compile
  HasScope("calendars:raed");
});

Deno.test("TenantMember lets through a caller whose request runs for one of its tenants, and refuses the others", async () => {
  const refusals: string[] = [];
  const http = composeApplication({
    modules: [defineModule("guards", { declarations: [TenantReport] })],
    plugins: {
      http: httpPlugin({
        // The request names no tenant, so the pipeline refuses nobody: TenantMember decides.
        tenantOf: () => undefined,
        authenticators: [{
          authenticate: (r) =>
            r.headers.has("x-user")
              ? {
                actor: userActor("u1", {
                  tenants: r.headers.get("x-user")!.split(",").filter(Boolean),
                }),
              }
              : undefined,
        }],
        onGuardRefusal: (refusal) => void refusals.push(refusal.guard),
      }),
    },
  }).http;
  const get = (tenants?: string) =>
    http.fetch(
      new Request("http://api.test/tenants/t1/report", {
        headers: tenants === undefined ? {} : { "x-user": tenants },
      }),
    );
  assert.equal((await get()).status, 401);
  // A caller of one tenant runs for it.
  assert.equal((await get("t1")).status, 204);
  // A caller of several who names none, or of none, runs for no tenant: refused.
  assert.equal((await get("t1,t2")).status, 403);
  assert.equal((await get("")).status, 403);
  assert.deepEqual(refusals, ["TenantMember", "TenantMember", "TenantMember"]);
});

Deno.test("A controller given anything but its bus, a mapper or a serializer is refused at composition", () => {
  const Mailer = token<unknown>("Mailer");
  @Controller({ method: "POST", path: "/x", guards: [TenantMember], response: { status: 204 } })
  class SendsMail {
    constructor(readonly mailer: unknown) {}
    handle(): void {}
  }
  assert.throws(
    () =>
      composeApplication({
        modules: [
          defineModule("x", {
            declarations: [SendsMail],
            dependencies: new Map([[SendsMail, [Mailer]]]),
            providers: [{ provide: Mailer, provider: { useValue: {} } }],
          }),
        ],
        plugins: { http: httpPlugin() },
      }),
    {
      message:
        "Controller 'SendsMail' may be given only the CommandBus, a @RequestMapper() and a @Serializer(), not 'Mailer'",
    },
  );
  @Controller({ method: "POST", path: "/y", guards: [TenantMember], response: { status: 204 } })
  class ReadsWithQueryBus {
    constructor(readonly queries: QueryBus) {}
    handle(): void {}
  }
  assert.throws(
    () =>
      composeApplication({
        modules: [
          defineModule("y", {
            declarations: [ReadsWithQueryBus],
            dependencies: new Map([[ReadsWithQueryBus, [QueryBus]]]),
          }),
        ],
        plugins: { http: httpPlugin() },
      }),
    /may be given only the CommandBus/,
  );
  void CommandBus;
});

Deno.test("A Public route resolves no caller: its actor is anonymous even with a credential", async () => {
  const { Public, zodSchema: schema } = await import("../mod.ts");
  let authenticated = 0;
  @Controller({
    method: "GET",
    path: "/whoami",
    guards: [Public],
    response: { status: 200, body: schema(z.object({ id: z.string() }), { io: "output" }) },
  })
  class WhoAmI {
    handle(request: import("../mod.ts").HttpRequest): { id: string } {
      return { id: request.actor.id };
    }
  }
  const http = composeApplication({
    modules: [defineModule("public", { declarations: [WhoAmI] })],
    plugins: {
      http: httpPlugin({
        authenticators: [{ authenticate: () => (authenticated++, { actor: userActor("u1") }) }],
      }),
    },
  }).http;
  const response = await http.fetch(
    new Request("http://api.test/whoami", { headers: { authorization: "Bearer x" } }),
  );
  assert.deepEqual(await response.json(), { id: "anonymous" });
  assert.equal(authenticated, 0);
});
