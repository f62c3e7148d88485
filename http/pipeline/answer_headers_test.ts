import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { TestClock } from "@kit/kernel/testing";
import { jwtAuthenticator } from "../mod.ts";
import { requestAs, tenantApp } from "../test_fixtures/tenant_app.ts";

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
