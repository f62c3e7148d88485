import assert from "node:assert/strict";
import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import { SignJWT } from "jose";
import { composeApplication, defineModule } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import {
  Authenticated,
  Controller,
  defineRoute,
  httpPlugin,
  type HttpRequest,
  jwtAuthenticator,
  Public,
  standardSchema,
  zodSchema,
} from "../mod.ts";

@Controller({
  method: "POST",
  path: "/valibot/:id",
  guards: [Public],
  params: standardSchema(v.object({ id: v.pipe(v.string(), v.minLength(3)) })),
  headers: zodSchema(z.object({ "x-request-source": z.enum(["web", "app"]) })),
  body: standardSchema(type({ reason: "string > 0", "count?": "number.integer" })),
  response: {
    status: 200,
    body: zodSchema(z.object({ id: z.string(), source: z.string(), reason: z.string() }), {
      io: "output",
    }),
  },
})
class EchoParts {
  handle(
    request: HttpRequest<
      { params: { id: string }; headers: { "x-request-source": string }; body: { reason: string } }
    >,
  ): { id: string; source: string; reason: string } {
    return {
      id: request.params.id,
      source: request.headers["x-request-source"],
      reason: request.body.reason,
    };
  }
}

@Controller({
  method: "GET",
  path: "/me",
  guards: [Authenticated],
  response: {
    status: 200,
    body: zodSchema(z.object({ id: z.string(), scopes: z.array(z.string()) }), { io: "output" }),
  },
})
class Me {
  handle(request: HttpRequest): { id: string; scopes: string[] } {
    return { id: request.actor.id, scopes: [...(request.context.session?.scopes ?? [])] };
  }
}

const report = defineRoute(
  {
    method: "GET",
    path: "/reports/:name",
    operationId: "readReport",
    request: { params: zodSchema(z.object({ name: z.enum(["csv", "bytes"]) })) },
    responses: { 200: { description: "The report" } },
    security: [],
  },
  ({ params }) =>
    params.name === "csv"
      ? { status: 200, body: "a,b\n1,2\n", headers: { "content-type": "text/csv" } }
      : { status: 200, body: new Uint8Array([1, 2, 3]) },
);

const secret = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");
const clock = new TestClock("2026-10-01T12:00:00Z");

function app() {
  return composeApplication({
    modules: [defineModule("parts", { declarations: [EchoParts, Me] })],
    clock,
    plugins: {
      http: httpPlugin({
        routes: [report],
        authenticators: [
          jwtAuthenticator({
            key: secret,
            algorithms: ["HS256"],
            issuer: "kit",
            audience: "api",
            clock,
          }),
        ],
      }),
    },
  }).http;
}

Deno.test("Params (valibot), headers (zod) and body (arktype) are validated and read, all issues in one problem", async () => {
  const http = app();
  const ok = await http.fetch(
    new Request("http://api.test/valibot/abc", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-source": "web" },
      body: JSON.stringify({ reason: "ill" }),
    }),
  );
  assert.deepEqual(await ok.json(), { id: "abc", source: "web", reason: "ill" });
  const bad = await http.fetch(
    new Request("http://api.test/valibot/ab", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-source": "fax" },
      body: JSON.stringify({ reason: "", count: 1.5 }),
    }),
  );
  assert.equal(bad.status, 422);
  const pointers = (await bad.json()).errors.map((e: { pointer: string }) => e.pointer).sort();
  assert.deepEqual(pointers, [
    "/body/count",
    "/body/reason",
    "/headers/x-request-source",
    "/params/id",
  ]);
});

Deno.test("A bearer JWT identifies the caller over HTTP; an expired one answers a 401 problem", async () => {
  const http = app();
  const now = Math.floor(clock.now().getTime() / 1000);
  const token = (exp: number) =>
    new SignJWT({ scope: "calendars:read" }).setProtectedHeader({ alg: "HS256" }).setSubject(
      "dr-who",
    )
      .setIssuer("kit").setAudience("api").setExpirationTime(exp).sign(secret);
  const me = await http.fetch(
    new Request("http://api.test/me", {
      headers: { authorization: `Bearer ${await token(now + 60)}` },
    }),
  );
  assert.deepEqual(await me.json(), { id: "dr-who", scopes: ["calendars:read"] });
  const expired = await http.fetch(
    new Request("http://api.test/me", {
      headers: { authorization: `Bearer ${await token(now - 60)}` },
    }),
  );
  assert.equal(expired.status, 401);
  const problem = await expired.json();
  assert.equal(problem.code, "UNAUTHORIZED");
  assert.match(problem.detail, /expired/);
});

Deno.test("A function route answers text with its own content type, and bytes", async () => {
  const http = app();
  const csv = await http.fetch(new Request("http://api.test/reports/csv"));
  assert.equal(csv.headers.get("content-type"), "text/csv");
  assert.equal(await csv.text(), "a,b\n1,2\n");
  const bytes = await http.fetch(new Request("http://api.test/reports/bytes"));
  assert.equal(bytes.headers.get("content-type"), "application/octet-stream");
  assert.deepEqual(new Uint8Array(await bytes.arrayBuffer()), new Uint8Array([1, 2, 3]));
});
