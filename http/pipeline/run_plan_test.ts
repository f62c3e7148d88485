import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule, userActor } from "@kit/kernel";
import {
  Authenticated,
  type Authenticator,
  Controller,
  type GuardRefusal,
  httpPlugin,
  type HttpRequest,
  zodSchema,
} from "../mod.ts";

const echo = zodSchema(z.object({ tenantId: z.string(), page: z.string() }), { io: "output" });

@Controller({
  method: "GET",
  path: "/tenants/:tenantId/echo",
  guards: [Authenticated],
  params: zodSchema(z.object({ tenantId: z.string() })),
  query: zodSchema(z.object({ page: z.string().default("1") })),
  response: { status: 200, body: echo },
})
class Echo {
  handle(request: HttpRequest<{ params: { tenantId: string }; query: { page: string } }>): {
    tenantId: string;
    page: string;
  } {
    return { tenantId: request.params.tenantId, page: request.query.page };
  }
}

/** Identifies `x-user: id;tenant`, synchronously or after a turn, and counts its calls. */
function countingAuthenticator(async: boolean): Authenticator & { calls: number } {
  const authenticator = {
    calls: 0,
    authenticate(request: Request) {
      authenticator.calls++;
      const header = request.headers.get("x-user");
      const [id, tenant] = (header ?? "").split(";");
      const caller = header === null
        ? undefined
        : { actor: userActor(id!, { tenants: [tenant!] }) };
      return async ? Promise.resolve(caller) : caller;
    },
  };
  return authenticator;
}

function app(authenticator: Authenticator, refusals: GuardRefusal[] = []) {
  return composeApplication({
    modules: [defineModule("plan", { declarations: [Echo] })],
    plugins: {
      http: httpPlugin({
        authenticators: [authenticator],
        onGuardRefusal: (refusal) => void refusals.push(refusal),
      }),
    },
  }).http;
}

Deno.test("A route whose authenticator, schemas, guard and handler are synchronous answers without a promise", async () => {
  const http = app(countingAuthenticator(false));
  const answered = http.fetch(
    new Request("http://api.test/tenants/t1/echo?page=2", { headers: { "x-user": "ann;t1" } }),
  );
  assert.ok(answered instanceof Response, "a synchronous plan answers a Response");
  assert.equal(answered.status, 200);
  assert.deepEqual(await answered.json(), { tenantId: "t1", page: "2" });
  const refused = http.fetch(new Request("http://api.test/tenants/t1/echo"));
  assert.ok(refused instanceof Promise, "a refusal told to onGuardRefusal waits for it");
  assert.equal((await refused).status, 401);
});

Deno.test("After an asynchronous step the plan goes on from the next step: the authenticator runs once", async () => {
  const authenticator = countingAuthenticator(true);
  const refusals: GuardRefusal[] = [];
  const http = app(authenticator, refusals);
  const ok = await http.fetch(
    new Request("http://api.test/tenants/t1/echo", { headers: { "x-user": "ann;t1" } }),
  );
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { tenantId: "t1", page: "1" });
  assert.equal(authenticator.calls, 1);
  const other = await http.fetch(
    new Request("http://api.test/tenants/t2/echo", { headers: { "x-user": "ann;t1" } }),
  );
  assert.equal(other.status, 403);
  assert.equal(authenticator.calls, 2, "a refused request does not run the authenticators again");
  assert.deepEqual(refusals.map((refusal) => [refusal.guard, refusal.actor?.id]), [
    ["TenantMember", "ann"],
  ]);
});

Deno.test("A step's answer ends the plan: invalid parts answer 422 before the tenant and the guards", async () => {
  const refusals: GuardRefusal[] = [];
  const http = app(countingAuthenticator(false), refusals);
  const response = await http.fetch(new Request("http://api.test/tenants/t2/echo?page=1&page=2"));
  assert.equal(response.status, 422);
  assert.deepEqual(
    (await response.json()).errors.map((issue: { pointer: string }) => issue.pointer),
    [
      "/query/page",
    ],
  );
  assert.deepEqual(refusals, []);
});
