import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule, UnauthorizedError, userActor } from "@kit/kernel";
import {
  type Authenticator,
  Controller,
  defineRoute,
  httpPlugin,
  type HttpRequest,
  Public,
  zodSchema,
} from "../mod.ts";
import type { FunctionRouteSpec } from "../types.ts";
import { validatingFetch } from "../testing.ts";

/** Identifies `x-user: <id>`; refuses an empty one (a bad credential: 401). */
const users: Authenticator = {
  authenticate(request) {
    const id = request.headers.get("x-user");
    if (id === null) return undefined;
    if (id === "") throw new UnauthorizedError("Malformed credential");
    return { actor: userActor(id) };
  },
};

const who = zodSchema(z.object({ actor: z.string() }), { io: "output" });

@Controller({
  method: "GET",
  path: "/plain",
  guards: [Public],
  response: { status: 200, body: who },
})
class PlainPublic {
  handle(request: HttpRequest): { actor: string } {
    return { actor: request.actor.id };
  }
}

@Controller({
  method: "GET",
  path: "/with-query",
  guards: [Public],
  query: zodSchema(z.object({ q: z.string().optional() })),
  response: { status: 200, body: who },
})
class QueryPublic {
  handle(request: HttpRequest<{ query: { q?: string } }>): { actor: string } {
    return { actor: request.actor.id };
  }
}

const openFunction = defineRoute({
  method: "GET",
  path: "/open-function/:id",
  operationId: "openFunction",
  request: { params: zodSchema(z.object({ id: z.string() })) },
  responses: { 200: { description: "Who asked", body: who } },
  security: [],
}, ({ context }) => ({ status: 200, body: { actor: context.execution.actor.id } }));

function app(routes = [openFunction]) {
  return composeApplication({
    modules: [defineModule("open", { declarations: [PlainPublic, QueryPublic] })],
    plugins: { http: httpPlugin({ authenticators: [users], routes, security: ["bearer"] }) },
  }).http;
}

Deno.test("Public reads no credential, with or without parts: a bad or a good one is ignored alike, and the document shows no 401", async () => {
  const http = app();
  const fetch = validatingFetch(http.fetch, () => http.openapi());
  for (const path of ["/plain", "/with-query?q=x", "/open-function/1"]) {
    for (const header of [{}, { "x-user": "" }, { "x-user": "ann" }] as Record<string, string>[]) {
      const response = await fetch(new Request(`http://api.test${path}`, { headers: header }));
      assert.equal(response.status, 200, `${path} ${JSON.stringify(header)}`);
      assert.deepEqual(await response.json(), { actor: "anonymous" });
    }
  }
  const paths = http.openapi().paths as Record<
    string,
    { get: { security?: unknown; responses: Record<string, unknown> } }
  >;
  for (const path of ["/plain", "/with-query", "/open-function/{id}"]) {
    assert.deepEqual(paths[path]!.get.security, [], path);
    assert.ok(!("401" in paths[path]!.get.responses), `${path} documents no 401`);
  }
});

Deno.test("A function route that says no security is refused when the application composes", () => {
  const forgotten = defineRoute(
    {
      method: "GET",
      path: "/forgotten",
      operationId: "forgotten",
      responses: { 200: { description: "Anything" } },
    } as unknown as FunctionRouteSpec,
    () => ({ status: 200 }),
  );
  assert.throws(
    () => app([forgotten]),
    /Route 'forgotten' says no security: name the schemes it requires \(security: \["bearer"\]\), or security: \[\] for a route open to anyone/,
  );
});
