import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { Validator } from "@seriousme/openapi-schema-validator";
import { parse } from "yaml";
import { generatedDocs } from "../src/platform/docs/generate-docs.ts";

const root = new URL("../", import.meta.url).pathname;

Deno.test("the committed OpenAPI, AsyncAPI and event catalog are what docs:generate writes", async () => {
  for (const [path, contents] of await generatedDocs()) {
    const committed = await readFile(root + path, "utf8").catch(() => "(missing)");
    assert.ok(committed === contents, `${path} is stale: run 'deno task docs:generate'`);
  }
});

Deno.test("the OpenAPI document is valid OpenAPI 3.1 and documents every route of the spec", async () => {
  const document = parse(await readFile(root + "openapi/scheduling.yaml", "utf8"));
  const result = await new Validator().validate(document);
  assert.equal(result.valid, true, JSON.stringify(result.errors));
  const paths = document.paths as Record<string, Record<string, unknown>>;
  for (
    const [path, method] of [
      ["/appointments", "post"],
      ["/appointments/{appointmentId}/cancellation", "post"],
      ["/appointments/{appointmentId}/confirmation", "post"],
      ["/calendars/{calendarId}", "put"],
      ["/calendars/{calendarId}/clearances", "post"],
      ["/calendars/{calendarId}/clearances/{clearanceId}", "get"],
      ["/notifications", "get"],
      ["/notifications/preferences", "get"],
      ["/people/invitations", "get"],
      ["/people/me", "get"],
    ] as const
  ) {
    assert.ok(paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
  }
  const clearance = JSON.stringify(paths["/calendars/{calendarId}/clearances/{clearanceId}"]);
  for (const status of ["waiting", "running", "succeeded", "dead", "cancelled"]) {
    assert.ok(clearance.includes(status), `the clearance status enum names ${status}`);
  }
  assert.ok(clearance.includes("UNKNOWN_CLEARANCE"));
});
