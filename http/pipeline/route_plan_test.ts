import assert from "node:assert/strict";
import type { Authenticator } from "./authenticator.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import { planRoute } from "./route_plan.ts";
import { customSchema } from "../schema/schema.ts";

const schema = customSchema({ validate: (value) => ({ ok: true, value }), jsonSchema: {} });
const bearer: Authenticator = { authenticate: () => undefined };
const allow = () => ({ name: "Allow", check: () => {} });

/** A compiled route with what a plan reads: no authenticator, part, guard or cache unless given. */
function route(over: Partial<CompiledRoute>): CompiledRoute {
  return {
    method: "GET",
    path: "/hello",
    authenticators: [],
    parts: {},
    guards: [],
    guardNames: [],
    public: false,
    requiresCaller: false,
    ...over,
  } as CompiledRoute;
}

function stepsOf(compiled: CompiledRoute): string[] {
  const plan = planRoute(compiled, { tenantInPathOnly: true });
  return [...plan.steps.map((step) => step.name), plan.answer.name];
}

Deno.test("A Public route without parts runs its tenant and its handler, nothing else", () => {
  assert.deepEqual(stepsOf(route({ public: true })), ["enterTenant", "runHandler"]);
});

Deno.test("A route's plan has the spec's steps in order, each only when the route declares it", () => {
  const full = route({
    method: "POST",
    path: "/calendars/:calendarId",
    authenticators: [bearer],
    parts: { params: schema, query: schema, headers: schema, body: schema },
    guards: [allow, allow],
    guardNames: ["Allow", "Allow"],
  });
  assert.deepEqual(stepsOf(full), [
    "authenticate",
    "validateParams",
    "validateQuery",
    "validateHeaders",
    "validateBody",
    "refuseInvalidParts",
    "enterTenant",
    "checkGuardAt",
    "checkGuardAt",
    "runHandler",
  ]);
  assert.deepEqual(stepsOf(route({ authenticators: [bearer], requiresCaller: true })), [
    "authenticate",
    "enterTenant",
    "requireCaller",
    "runHandler",
  ]);
});

Deno.test("A path with parameters is checked without a schema; a cache policy answers through the cache", () => {
  assert.deepEqual(stepsOf(route({ path: "/calendars/:calendarId", cache: { etag: true } })), [
    "validateParams",
    "refuseInvalidParts",
    "enterTenant",
    "runCachedHandler",
  ]);
});

Deno.test("A Public route runs no guard, whatever its groups list", () => {
  assert.deepEqual(stepsOf(route({ public: true, guards: [allow], guardNames: ["Allow"] })), [
    "enterTenant",
    "runHandler",
  ]);
});

Deno.test("A route is open only when nothing runs before its handler and no request can name its tenant", () => {
  const open = (compiled: CompiledRoute, tenantInPathOnly = true) =>
    planRoute(compiled, { tenantInPathOnly }).open;
  assert.equal(open(route({ public: true })), true);
  assert.equal(open(route({ public: true, guards: [allow], guardNames: ["Allow"] })), true);
  // A tenant read from a header or by the project's tenantOf: enterTenant checks it.
  assert.equal(open(route({ public: true }), false), false);
  // A path parameter (:tenantId among them) is checked, a part validated, a caller read.
  assert.equal(open(route({ public: true, path: "/practices/:tenantId" })), false);
  assert.equal(open(route({ public: true, parts: { query: schema } })), false);
  assert.equal(open(route({ public: true, authenticators: [bearer] })), false);
  // A closed route: its guards run, or it requires a caller.
  assert.equal(open(route({ guards: [allow], guardNames: ["Allow"] })), false);
  assert.equal(open(route({ requiresCaller: true })), false);
  // A cache policy answers through the cache.
  assert.equal(open(route({ public: true, cache: { etag: true } })), false);
});
