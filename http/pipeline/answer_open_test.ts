import assert from "node:assert/strict";
import { z } from "zod";
import {
  composeApplication,
  currentScope,
  defineModule,
  QueryBus,
  ServiceUnavailableError,
  userActor,
} from "@kit/kernel";
import {
  type Authenticator,
  Controller,
  defineRoute,
  httpPlugin,
  type HttpPluginOptions,
  type HttpRequest,
  Public,
  zodSchema,
} from "../mod.ts";

const saw = z.object({ actor: z.string(), tenant: z.string().nullable(), scoped: z.boolean() });
type Saw = z.output<typeof saw>;
const seen = zodSchema(saw, { io: "output" });

/** What the handler saw: its actor, its context's tenant, whether it ran in the work scope. */
function sawOf(request: HttpRequest): Saw {
  return {
    actor: request.actor.id,
    tenant: request.context.tenantId ?? null,
    scoped: currentScope()?.execution === request.context,
  };
}

@Controller({
  method: "GET",
  path: "/open",
  guards: [Public],
  response: { status: 200, body: seen },
})
class Open {
  handle(request: HttpRequest): Saw {
    return sawOf(request);
  }
}

@Controller({
  method: "GET",
  path: "/open/later",
  guards: [Public],
  response: { status: 200, body: seen },
})
class OpenLater {
  async handle(request: HttpRequest): Promise<Saw> {
    await Promise.resolve();
    return sawOf(request);
  }
}

/** Given the bus, so its handler runs in the request's work scope. */
@Controller({
  method: "GET",
  path: "/open/scoped",
  guards: [Public],
  response: { status: 200, body: seen },
})
class OpenScoped {
  constructor(readonly queries: QueryBus) {}
  handle(request: HttpRequest): Saw {
    return sawOf(request);
  }
}

@Controller({ method: "GET", path: "/open/throws", guards: [Public], response: { status: 200 } })
class OpenThrows {
  handle(): never {
    throw new Error("secret detail");
  }
}

@Controller({ method: "GET", path: "/open/rejects", guards: [Public], response: { status: 200 } })
class OpenRejects {
  handle(): Promise<never> {
    return Promise.reject(new Error("secret detail"));
  }
}

@Controller({ method: "GET", path: "/open/busy", guards: [Public], response: { status: 200 } })
class OpenBusy {
  handle(): never {
    throw new ServiceUnavailableError("database", { retryAfterSeconds: 7 });
  }
}

const openFunction = defineRoute({
  method: "GET",
  path: "/open/function",
  operationId: "openFunction",
  responses: { 200: { description: "What it saw", body: seen } },
  security: [],
}, ({ context }) => ({
  status: 200,
  body: {
    actor: context.execution.actor.id,
    tenant: context.execution.tenantId ?? null,
    scoped: currentScope()?.execution === context.execution,
  },
}));

const failingFunction = defineRoute({
  method: "GET",
  path: "/open/function/throws",
  operationId: "failingFunction",
  responses: { 200: { description: "Never" } },
  security: [],
}, () => {
  throw new Error("secret detail");
});

/** `x-user: <id>;<tenant>`: identifies a caller of one tenant. */
const users: Authenticator = {
  authenticate(request) {
    const header = request.headers.get("x-user");
    if (header === null) return undefined;
    const [id, tenant] = header.split(";");
    return { actor: userActor(id!, { tenants: tenant ? [tenant] : [] }) };
  },
};

function app(options: Partial<HttpPluginOptions> = {}, reported: unknown[] = []) {
  return composeApplication({
    modules: [
      defineModule("open", {
        declarations: [Open, OpenLater, OpenScoped, OpenThrows, OpenRejects, OpenBusy],
        dependencies: new Map([[OpenScoped, [QueryBus]]]),
      }),
    ],
    errorReporter: { report: (error) => void reported.push(error) },
    plugins: {
      http: httpPlugin({
        authenticators: [users],
        routes: [openFunction, failingFunction],
        ...options,
      }),
    },
  }).http;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://api.test${path}`, { headers });

Deno.test("An open route answers its body to anyone, as the anonymous caller, for no tenant, with nosniff and no no-store", async () => {
  const http = app();
  const cases: [string, boolean][] = [
    ["/open", false],
    ["/open/later", false],
    ["/open/scoped", true],
    ["/open/function", true],
  ];
  for (const [path, scoped] of cases) {
    // A credential and a tenant sent are not read: the route reads none.
    const sent: Record<string, string>[] = [{}, { "x-user": "ann;t1", "x-tenant-id": "t1" }];
    for (const headers of sent) {
      const response = await http.fetch(get(path, headers));
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("content-type"), "application/json", path);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
      assert.equal(response.headers.get("cache-control"), null, path);
      assert.deepEqual(await response.json(), { actor: "anonymous", tenant: null, scoped }, path);
    }
  }
});

Deno.test("An open route's errors are problems as on every route: 500 reported without its message, a refusal its status", async () => {
  const reported: unknown[] = [];
  const http = app({}, reported);
  for (const path of ["/open/throws", "/open/rejects", "/open/function/throws"]) {
    const response = await http.fetch(get(path));
    assert.equal(response.status, 500, path);
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    const text = await response.text();
    assert.ok(!text.includes("secret"), "the error's message must not leak");
    assert.equal(JSON.parse(text).code, "INTERNAL_ERROR");
    assert.equal(JSON.parse(text).instance, path);
  }
  assert.equal(reported.length, 3);
  const busy = await http.fetch(get("/open/busy"));
  assert.equal(busy.status, 503);
  assert.equal(busy.headers.get("retry-after"), "7");
  assert.equal((await busy.json()).code, "SERVICE_UNAVAILABLE");
});

Deno.test("A Public route of a pipeline that reads the tenant from a header still checks the tenant named", async () => {
  const http = app({ tenantHeader: "x-tenant-id" });
  const named = await http.fetch(get("/open", { "x-tenant-id": "t1" }));
  assert.equal(named.status, 200);
  assert.deepEqual(await named.json(), { actor: "anonymous", tenant: "t1", scoped: false });
  const malformed = await http.fetch(get("/open", { "x-tenant-id": "t\u0001" }));
  assert.equal(malformed.status, 400);
  assert.equal((await malformed.json()).code, "INVALID_TENANT");
  const byFunction = app({
    tenantOf: (_params, request) => request.headers.get("x-t") ?? undefined,
  });
  assert.deepEqual(await (await byFunction.fetch(get("/open/function", { "x-t": "t2" }))).json(), {
    actor: "anonymous",
    tenant: "t2",
    scoped: true,
  });
});

Deno.test("HEAD of an open route answers as its GET, without a body", async () => {
  const response = await app().fetch(new Request("http://api.test/open", { method: "HEAD" }));
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
});
