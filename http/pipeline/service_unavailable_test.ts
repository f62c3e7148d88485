import assert from "node:assert/strict";
import { ConceptError, ServiceUnavailableError } from "@kit/kernel";
import { z } from "zod";
import { defineRoute, zodSchema } from "../mod.ts";
import { requestAs, tenantApp } from "../test_fixtures/tenant_app.ts";

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
