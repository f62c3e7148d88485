import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule, UnauthorizedError, userActor } from "@kit/kernel";
import {
  type Authenticator,
  Controller,
  defineRoute,
  type Guard,
  type GuardRequest,
  HasRole,
  httpPlugin,
  type HttpRequest,
  RouteGroup,
  zodSchema,
} from "../mod.ts";
import { validatingFetch } from "../testing.ts";

/** Identifies `authorization: Bearer <id>` (the `bearer` scheme). */
const bearer: Authenticator = {
  scheme: "bearer",
  authenticate(request) {
    const header = request.headers.get("authorization");
    if (header === null) return undefined;
    return { actor: userActor(header.replace(/^Bearer /, ""), { roles: ["admin"] }) };
  },
};

/** Identifies `x-api-key: <id>` (the `apiKey` scheme). */
const apiKey: Authenticator = {
  scheme: "apiKey",
  authenticate(request) {
    const key = request.headers.get("x-api-key");
    return key === null ? undefined : { actor: userActor(`key:${key}`, { roles: ["admin"] }) };
  },
};

const who = zodSchema(z.object({ actor: z.string() }), { io: "output" });

/** A group that names no guard: its routes are closed all the same. */
@RouteGroup({ prefix: "/plain" })
class PlainRoutes {}

@Controller({
  group: PlainRoutes,
  method: "GET",
  path: "/who",
  response: { status: 200, body: who },
})
class Who {
  handle(request: HttpRequest): { actor: string } {
    return { actor: request.actor.id };
  }
}

@Controller({
  group: PlainRoutes,
  method: "GET",
  path: "/with-query",
  query: zodSchema(z.object({ q: z.string().optional() })),
  response: { status: 200, body: who },
})
class WhoWithQuery {
  handle(request: HttpRequest): { actor: string } {
    return { actor: request.actor.id };
  }
}

/** Lets through a caller identified by an API key, and documents the `apiKey` scheme. */
const KeyHolder: Guard = Object.freeze({
  name: "KeyHolder",
  documents: { errors: ["UNAUTHORIZED"], security: ["apiKey"] },
  check(request: GuardRequest): void {
    if (request.actor === undefined) throw new UnauthorizedError();
  },
});

@Controller({
  method: "GET",
  path: "/machines",
  guards: [KeyHolder],
  response: { status: 200, body: who },
})
class Machines {
  handle(request: HttpRequest): { actor: string } {
    return { actor: request.actor.id };
  }
}

@Controller({
  method: "GET",
  path: "/admins",
  guards: [HasRole("admin")],
  response: { status: 200, body: who },
})
class Admins {
  handle(request: HttpRequest): { actor: string } {
    return { actor: request.actor.id };
  }
}

const keyFunction = defineRoute({
  method: "GET",
  path: "/key-function",
  operationId: "keyFunction",
  responses: { 200: { description: "Who asked", body: who } },
  security: ["apiKey"],
}, ({ context }) => ({ status: 200, body: { actor: context.execution.actor.id } }));

function app(authenticators: readonly Authenticator[] = [bearer, apiKey]) {
  return composeApplication({
    modules: [
      defineModule("secured", { declarations: [PlainRoutes, Who, WhoWithQuery, Machines, Admins] }),
    ],
    plugins: {
      http: httpPlugin({
        authenticators,
        routes: [keyFunction],
        security: ["bearer"],
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        },
      }),
    },
  }).http;
}

function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://api.test${path}`, { headers });
}

Deno.test("A controller whose group names no guard, and itself none, is closed: 401 to an anonymous caller, on the simple and the full path, as its document says", async () => {
  for (const authenticators of [[bearer, apiKey], []]) {
    const http = app(authenticators);
    const fetch = validatingFetch(http.fetch, () => http.openapi());
    for (const path of ["/plain/who", "/plain/with-query?q=x"]) {
      const anonymous = await fetch(get(path));
      assert.equal(anonymous.status, 401, path);
      assert.equal((await anonymous.json()).code, "UNAUTHORIZED");
    }
    const paths = http.openapi().paths as Record<string, { get: { responses: object } }>;
    assert.ok("401" in paths["/plain/who"]!.get.responses, "the document lists the 401");
  }
  const http = app();
  const known = await http.fetch(get("/plain/who", { authorization: "Bearer ann" }));
  assert.equal(known.status, 200);
  assert.deepEqual(await known.json(), { actor: "ann" });
});

Deno.test("A route runs only the authenticators of the schemes it requires: another scheme's credential identifies nobody there", async () => {
  const http = app();
  const fetch = validatingFetch(http.fetch, () => http.openapi());
  // The routes requiring the default scheme (bearer) do not read an API key...
  for (const path of ["/plain/who", "/admins"]) {
    const byKey = await fetch(get(path, { "x-api-key": "k1" }));
    assert.equal(byKey.status, 401, path);
    const byToken = await fetch(get(path, { authorization: "Bearer ann" }));
    assert.equal(byToken.status, 200, path);
  }
  // ...and those requiring an API key (a guard's scheme, a function route's) read no bearer token.
  for (const path of ["/machines", "/key-function"]) {
    const byToken = await fetch(get(path, { authorization: "Bearer ann" }));
    assert.equal(byToken.status, 401, path);
    const byKey = await fetch(get(path, { "x-api-key": "k1" }));
    assert.equal(byKey.status, 200, path);
    assert.deepEqual(await byKey.json(), { actor: "key:k1" });
  }
  const paths = http.openapi().paths as Record<string, { get: { security: unknown } }>;
  assert.deepEqual(paths["/machines"]!.get.security, [{ apiKey: [] }]);
  assert.deepEqual(paths["/admins"]!.get.security, [{ bearer: [] }]);
});

Deno.test("An authenticator naming no scheme runs for every closed route", async () => {
  const anyScheme: Authenticator = { authenticate: bearer.authenticate };
  const http = app([anyScheme]);
  for (const path of ["/plain/who", "/machines", "/key-function"]) {
    const response = await http.fetch(get(path, { authorization: "Bearer ann" }));
    assert.equal(response.status, 200, path);
  }
});

Deno.test("A route requiring a scheme securitySchemes does not define (a typo) is refused at composition, naming it", () => {
  @Controller({
    method: "GET",
    path: "/typo",
    guards: [{ name: "Typo", documents: { security: ["beare"] }, check() {} }],
    response: { status: 204 },
  })
  class Typo {
    handle(): void {}
  }
  assert.throws(
    () =>
      composeApplication({
        modules: [defineModule("typo", { declarations: [Typo] })],
        plugins: { http: httpPlugin({ authenticators: [bearer] }) },
      }),
    /Controller 'Typo' requires the security scheme 'beare', which httpPlugin\(\{ securitySchemes \}\) does not define/,
  );
  const typoFunction = defineRoute({
    method: "GET",
    path: "/typo-function",
    operationId: "typoFunction",
    responses: { 204: { description: "Nothing" } },
    security: ["jtw"],
  }, () => ({ status: 204 }));
  assert.throws(
    () =>
      composeApplication({
        modules: [],
        plugins: { http: httpPlugin({ authenticators: [bearer], routes: [typoFunction] }) },
      }),
    /Route 'typoFunction' requires the security scheme 'jtw'/,
  );
});
