import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { z } from "zod";
import { ConceptError, ServiceUnavailableError } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { defineRoute, jwtAuthenticator, zodSchema } from "../mod.ts";
import { respond } from "./answer.ts";
import { requestAs, tenantApp } from "../testdata/tenant_app.ts";

const ann = "ann;t1";

Deno.test("Every answer carries X-Content-Type-Options: nosniff", async () => {
  const http = tenantApp();
  const answers = {
    "controller 201": requestAs(ann, "POST", "/calendars", { body: { id: "c", name: "n" } }),
    "controller 200": requestAs(ann, "GET", "/calendars"),
    "simple route": requestAs(ann, "GET", "/open/tenant"),
    "function route": requestAs(undefined, "GET", "/own-caching"),
    "cached route": requestAs(ann, "GET", "/calendars/cached"),
    "422": requestAs(ann, "POST", "/calendars", { body: { id: "" } }),
    "400": requestAs(ann, "POST", "/calendars", { body: "{" }),
    "401": requestAs(undefined, "GET", "/calendars"),
    "403": requestAs(ann, "GET", "/calendars", { headers: { "x-tenant-id": "t2" } }),
    "404": requestAs(ann, "GET", "/nowhere"),
    "405": requestAs(ann, "DELETE", "/calendars"),
    "415": requestAs(ann, "POST", "/calendars", {
      body: "x",
      headers: { "content-type": "text/plain" },
    }),
  };
  for (const [name, request] of Object.entries(answers)) {
    const response = await http.fetch(request);
    await response.body?.cancel();
    assert.equal(response.headers.get("x-content-type-options"), "nosniff", name);
  }
});

Deno.test("An answer to an identified caller carries Cache-Control: no-store, successes and problems", async () => {
  const http = tenantApp();
  const answers = {
    "controller 201": requestAs(ann, "POST", "/calendars", { body: { id: "c", name: "n" } }),
    "controller 200": requestAs(ann, "GET", "/calendars"),
    "simple route": requestAs(ann, "GET", "/open/tenant"),
    "function route": requestAs(ann, "GET", "/secured/x"),
    "422": requestAs(ann, "POST", "/calendars", { body: { id: "" } }),
    "400 TENANT_REQUIRED": requestAs("multi;t1,t2", "GET", "/calendars"),
    "403": requestAs(ann, "GET", "/calendars", { headers: { "x-tenant-id": "t2" } }),
  };
  for (const [name, request] of Object.entries(answers)) {
    const response = await http.fetch(request);
    await response.body?.cancel();
    assert.ok(response.status < 500, name);
    assert.equal(response.headers.get("cache-control"), "no-store", name);
  }
});

Deno.test("No no-store for an anonymous caller, a route with a cache policy, or a handler's own Cache-Control", async () => {
  const http = tenantApp();
  const cases: [string, Request, string | null][] = [
    ["anonymous simple route", requestAs(undefined, "GET", "/open/tenant"), null],
    ["anonymous 401", requestAs(undefined, "GET", "/calendars"), null],
    ["cache policy", requestAs(ann, "GET", "/calendars/cached"), "private, max-age=60"],
    ["handler's own", requestAs(ann, "GET", "/secured/own"), "private, max-age=10"],
    ["public route's own", requestAs(undefined, "GET", "/own-caching"), "max-age=5"],
  ];
  for (const [name, request, expected] of cases) {
    const response = await http.fetch(request);
    await response.body?.cancel();
    assert.equal(response.headers.get("cache-control"), expected, name);
  }
});

Deno.test("Every 401 carries WWW-Authenticate: Bearer, with invalid_token and the reason for a refused token", async () => {
  const secret = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");
  const clock = new TestClock("2026-10-01T12:00:00Z");
  const now = Math.floor(clock.now().getTime() / 1000);
  const http = tenantApp({
    authenticators: [
      jwtAuthenticator({
        key: secret,
        algorithms: ["HS256"],
        issuer: "kit",
        audience: "api",
        clock,
      }),
    ],
  });
  const token = (exp: number) =>
    new SignJWT({ tenants: ["t1"] }).setProtectedHeader({ alg: "HS256" }).setSubject("ann")
      .setIssuer("kit").setAudience("api").setExpirationTime(exp).sign(secret);
  const bearer = (value: string) => ({ headers: { authorization: `Bearer ${value}` } });

  for (const path of ["/calendars", "/secured/x"]) {
    const anonymous = await http.fetch(requestAs(undefined, "GET", path));
    assert.equal(anonymous.status, 401, path);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer", path);
    assert.equal((await anonymous.json()).code, "UNAUTHORIZED");
  }
  for (const path of ["/calendars", "/open/tenant", "/secured/x"]) {
    const expired = await http.fetch(
      requestAs(undefined, "GET", path, bearer(await token(now - 60))),
    );
    assert.equal(expired.status, 401, path);
    assert.equal(
      expired.headers.get("www-authenticate"),
      'Bearer error="invalid_token", error_description="The token has expired"',
      path,
    );
    assert.equal((await expired.json()).detail, "The token has expired");
  }
  const notBearer = await http.fetch(
    requestAs(undefined, "GET", "/calendars", { headers: { authorization: "Basic YTpi" } }),
  );
  assert.match(notBearer.headers.get("www-authenticate") ?? "", /^Bearer error="invalid_token"/);
  const ok = await http.fetch(
    requestAs(undefined, "GET", "/calendars", bearer(await token(now + 60))),
  );
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("www-authenticate"), null);
  const forbidden = await http.fetch(requestAs(undefined, "GET", "/calendars", {
    headers: { ...bearer(await token(now + 60)).headers, "x-tenant-id": "t2" },
  }));
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.headers.get("www-authenticate"), null);
});

function fail({ params: { kind } }: { params: { kind: string } }): never {
  if (kind === "database") {
    throw new ServiceUnavailableError("database", { reason: "connection refused" });
  }
  if (kind === "slow") throw new ServiceUnavailableError("job store", { retryAfterSeconds: 2.2 });
  throw ConceptError.refusal("SERVICE_UNAVAILABLE", "Unavailable, no hint");
}

const request = { params: zodSchema(z.object({ kind: z.string() })) };
const responses = { 200: { description: "Never" } };
// An open route (it reads no credentials) and one for identified callers.
const outage = defineRoute(
  { method: "GET", path: "/outage/:kind", operationId: "outage", request, responses, security: [] },
  fail,
);
const securedOutage = defineRoute({
  method: "GET",
  path: "/secured/outage/:kind",
  operationId: "securedOutage",
  request,
  responses,
  security: ["bearer"],
}, fail);

Deno.test("SERVICE_UNAVAILABLE answers a 503 problem with Retry-After, the caller's no-store kept", async () => {
  const http = tenantApp({ routes: [outage, securedOutage] });
  const anonymous = await http.fetch(requestAs(undefined, "GET", "/outage/database"));
  assert.equal(anonymous.status, 503);
  assert.equal(anonymous.headers.get("retry-after"), "5");
  assert.equal(anonymous.headers.get("content-type"), "application/problem+json");
  assert.equal(anonymous.headers.get("cache-control"), null);
  const body = await anonymous.json();
  assert.equal(body.code, "SERVICE_UNAVAILABLE");
  assert.equal(body.status, 503);
  assert.equal(body.detail, "The database is unavailable (connection refused): retry in 5 s");

  const identified = await http.fetch(requestAs("ann;t1", "GET", "/secured/outage/slow"));
  assert.equal(identified.status, 503);
  assert.equal(identified.headers.get("retry-after"), "3", "whole seconds, rounded up");
  assert.equal(identified.headers.get("cache-control"), "no-store");
  await identified.body?.cancel();
});

Deno.test("A 503 whose error names no retry time answers without Retry-After", async () => {
  const http = tenantApp({ routes: [outage] });
  const response = await http.fetch(requestAs(undefined, "GET", "/outage/unknown"));
  assert.equal(response.status, 503);
  assert.equal(response.headers.get("retry-after"), null);
  await response.body?.cancel();
});

Deno.test("A 200 answer has the headers and body of any other status's, whichever way it is made", async () => {
  const bodies: [string, unknown, string][] = [
    ["JSON", { id: "c1" }, "application/json"],
    ["text", "plain words", "application/json"],
    ["bytes", new Uint8Array([1, 2, 3]), "application/json"],
    ["problem JSON media type", { id: "c1" }, "application/vnd.kit+json"],
  ];
  const own = { "Cache-Control": "max-age=5", "content-type": "application/x-own", "x-a": "b" };
  for (const [name, body, mediaType] of bodies) {
    for (const noStore of [false, true]) {
      for (const headers of [undefined, own]) {
        const ok = respond(
          { status: 200, body, ...(headers ? { headers } : {}) },
          mediaType,
          noStore,
        );
        const created = respond(
          { status: 201, body, ...(headers ? { headers } : {}) },
          mediaType,
          noStore,
        );
        const label = `${name}, no-store ${noStore}, own headers ${headers !== undefined}`;
        assert.equal(ok.status, 200, label);
        assert.deepEqual([...ok.headers], [...created.headers], label);
        assert.deepEqual(await ok.bytes(), await created.bytes(), label);
      }
    }
  }
});
