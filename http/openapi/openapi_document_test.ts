import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { schedulingApp } from "../test_fixtures/scheduling_app.ts";

Deno.test("The OpenAPI document is valid OpenAPI 3.1 (checked by a real validator)", async () => {
  const document = schedulingApp().openapi();
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.equal(validator.version, "3.1");
  assert.deepEqual(result.errors ?? [], [], JSON.stringify(result.errors, null, 2));
  assert.equal(result.valid, true);
});

Deno.test("The OpenAPI document is deterministic to the byte", () => {
  const a = JSON.stringify(schedulingApp().openapi());
  const b = JSON.stringify(schedulingApp().openapi());
  assert.equal(a, b);
});

Deno.test("A route's contract lists its guards', groups' and controller's error codes under their statuses", () => {
  const document = schedulingApp().openapi() as {
    paths: Record<
      string,
      Record<
        string,
        {
          responses: Record<string, { description: string }>;
          tags?: string[];
          security?: unknown;
          parameters?: { name: string; in: string }[];
        }
      >
    >;
  };
  const cancel = document.paths["/appointments/{appointmentId}/cancellation"]!.post!;
  assert.deepEqual(Object.keys(cancel.responses).sort(), [
    "201",
    "401",
    "403",
    "404",
    "409",
    "422",
  ]);
  assert.equal(cancel.responses["401"]!.description, "UNAUTHORIZED");
  assert.equal(cancel.responses["403"]!.description, "FORBIDDEN");
  assert.equal(cancel.responses["404"]!.description, "APPOINTMENT_NOT_FOUND");
  assert.equal(cancel.responses["409"]!.description, "APPOINTMENT_ENDED");
  assert.equal(cancel.responses["422"]!.description, "VALIDATION_FAILED");
  assert.deepEqual(cancel.tags, ["appointments"]);
  assert.deepEqual(cancel.parameters, [{
    name: "appointmentId",
    in: "path",
    required: true,
    schema: { type: "string", minLength: 1 },
  }]);
  const agenda = document.paths["/practices/{practiceId}/agenda"]!.get!;
  assert.deepEqual(agenda.tags, ["practices", "agenda"]);
  assert.deepEqual(agenda.parameters?.map((p) => `${p.in}:${p.name}`), [
    "query:days",
    "query:from",
  ]);
  const ping = document.paths["/partners/ping"]!.get!;
  assert.deepEqual(ping.security, [{ apiKey: [] }]);
  const health = document.paths["/health"]!.get!;
  assert.deepEqual(health.security, []);
  const put = document.paths["/calendars/{calendarId}"]!.put!;
  assert.deepEqual(put.security, [{ bearer: [] }]);
  assert.deepEqual(Object.keys(put.responses).sort(), ["200", "201", "401", "422"]);
});
