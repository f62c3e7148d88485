import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule, userActor } from "@kit/kernel";
import { Authenticated, type Authenticator, Controller, httpPlugin, zodSchema } from "../mod.ts";

const anyone: Authenticator = { authenticate: () => ({ actor: userActor("ann") }) };
const settings = z.object({ timeZone: z.string() });

@Controller({
  method: "PUT",
  path: "/optional",
  guards: [Authenticated],
  body: zodSchema(settings.optional()),
  response: { status: 204 },
})
class Optional {
  handle(): void {}
}

@Controller({
  method: "PUT",
  path: "/required",
  guards: [Authenticated],
  body: zodSchema(settings),
  response: { status: 204 },
})
class Required {
  handle(): void {}
}

Deno.test("A body schema that accepts no body is documented as an optional request body, and a request without one passes", async () => {
  const http = composeApplication({
    modules: [defineModule("bodies", { declarations: [Optional, Required] })],
    plugins: { http: httpPlugin({ authenticators: [anyone] }) },
  }).http;
  const paths = http.openapi().paths as Record<
    string,
    { put: { requestBody: { required: boolean } } }
  >;
  assert.equal(paths["/optional"]!.put.requestBody.required, false);
  assert.equal(paths["/required"]!.put.requestBody.required, true);
  const none = (path: string) =>
    http.fetch(new Request(`http://api.test${path}`, { method: "PUT" }));
  assert.equal((await none("/optional")).status, 204);
  assert.equal((await none("/required")).status, 422);
});
