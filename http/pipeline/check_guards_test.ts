import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule, userActor } from "@kit/kernel";
import { Controller, type Guard, type GuardRequest, httpPlugin, zodSchema } from "../mod.ts";

const seen: GuardRequest[] = [];

/** Lets every request through, keeping what it was shown. */
const Watcher: Guard = Object.freeze({
  name: "Watcher",
  documents: {},
  check(request: GuardRequest): void {
    seen.push(request);
  },
});

@Controller({
  method: "GET",
  path: "/tenants/:tenantId/watched",
  guards: [Watcher],
  response: { status: 200, body: zodSchema(z.object({ ok: z.boolean() }), { io: "output" }) },
})
class Watched {
  handle(): { ok: boolean } {
    return { ok: true };
  }
}

Deno.test("A guard sees the caller, session, lazily read headers, parameters and tenant, as own enumerable properties in that order", async () => {
  const actor = userActor("ann", { tenants: ["t1"] });
  const session = { scopes: new Set(["read"]) };
  const http = composeApplication({
    modules: [defineModule("guards", { declarations: [Watched] })],
    plugins: {
      http: httpPlugin({
        authenticators: [{
          authenticate: (r) => (r.headers.has("x-user") ? { actor, session } : undefined),
        }],
      }),
    },
  }).http;
  seen.length = 0;
  const response = await http.fetch(
    new Request("http://api.test/tenants/t1/watched", {
      headers: { "x-user": "ann", "X-Trace": "abc" },
    }),
  );
  assert.equal(response.status, 200);
  const [request] = seen;
  assert.ok(request !== undefined);
  assert.deepEqual(Object.keys(request), ["actor", "session", "headers", "params", "tenantId"]);
  const descriptor = Object.getOwnPropertyDescriptor(request, "headers")!;
  assert.equal(typeof descriptor.get, "function");
  assert.equal(descriptor.enumerable, true);
  assert.equal(request.actor, actor);
  assert.equal(request.session, session);
  assert.deepEqual(request.params, { tenantId: "t1" });
  assert.equal(request.tenantId, "t1");
  assert.equal(request.headers["x-trace"], "abc");
  assert.equal(request.headers, request.headers, "the headers record is made once");
  assert.deepEqual({ ...request.headers }, { "x-trace": "abc", "x-user": "ann" });

  seen.length = 0;
  await http.fetch(new Request("http://api.test/tenants/t2/watched"));
  assert.equal(seen[0]!.actor, undefined);
  assert.equal(seen[0]!.session, undefined);
  assert.equal(seen[0]!.tenantId, "t2");
});
