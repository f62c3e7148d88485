/**
 * The document lists every status a route can answer: each answer below is provoked on purpose
 * and goes through `validatingFetch` (the fixtures' `fetch`), which fails the test when the
 * route's document does not declare the status, or lists the code under another.
 */
import assert from "node:assert/strict";
import { requestAs, tenantApp } from "../testdata/tenant_app.ts";
import { schedulingApp } from "../testdata/scheduling_app.ts";

const receptionist = "r1;receptionist;p1";
const patient = "pat1;patient;p1";

function cancel(body: string, user?: string, type = "application/json"): Request {
  return new Request("http://api.test/appointments/a1/cancellation", {
    method: "POST",
    headers: { "content-type": type, ...(user ? { "x-test-user": user } : {}) },
    body,
  });
}

async function answered(response: Response): Promise<string> {
  const text = await response.text();
  const code = text.length > 0 ? JSON.parse(text).code : undefined;
  return `${response.status} ${code ?? "-"}`;
}

Deno.test("A body route documents and answers 400 MALFORMED_JSON, 413, 415, 422, 401, 403, its codes", async () => {
  const http = schedulingApp({ bodyLimit: 64 });
  for (
    const [request, expected] of [
      [cancel("{", receptionist), "400 MALFORMED_JSON"],
      [cancel(JSON.stringify({ reason: "x".repeat(100) }), receptionist), "413 CONTENT_TOO_LARGE"],
      [cancel("reason=x", receptionist, "text/plain"), "415 UNSUPPORTED_MEDIA_TYPE"],
      [cancel(JSON.stringify({ reason: "" }), receptionist), "422 VALIDATION_FAILED"],
      [cancel(JSON.stringify({ reason: "x" })), "401 UNAUTHORIZED"],
      [cancel(JSON.stringify({ reason: "x" }), ";"), "401 UNAUTHORIZED"],
      [cancel(JSON.stringify({ reason: "x" }), patient), "403 FORBIDDEN"],
      [
        new Request("http://api.test/appointments/missing/cancellation", {
          method: "POST",
          headers: { "content-type": "application/json", "x-test-user": receptionist },
          body: JSON.stringify({ reason: "x" }),
        }),
        "404 APPOINTMENT_NOT_FOUND",
      ],
    ] as const
  ) {
    assert.equal(await answered(await http.fetch(request)), expected);
  }
});

Deno.test("A route where a tenant can be named documents and answers 400 INVALID_TENANT and 403", async () => {
  const http = tenantApp();
  const invalid = requestAs("ann;t1", "GET", "/calendars/", { headers: { "x-tenant-id": "" } });
  assert.equal(await answered(await http.fetch(invalid)), "400 INVALID_TENANT");
  const other = requestAs("ann;t1", "GET", "/calendars/", { headers: { "x-tenant-id": "t2" } });
  assert.equal(await answered(await http.fetch(other)), "403 FORBIDDEN");
});

Deno.test("A route sending a command or query documents and answers 400 TENANT_REQUIRED", async () => {
  const http = tenantApp();
  const unnamed = requestAs("ann;t1,t2", "GET", "/calendars/");
  assert.equal(await answered(await http.fetch(unnamed)), "400 TENANT_REQUIRED");
  const create = requestAs("ann;t1,t2", "POST", "/calendars/", { body: { id: "c1", name: "A" } });
  assert.equal(await answered(await http.fetch(create)), "400 TENANT_REQUIRED");
});

Deno.test("Each pipeline code is documented under its real status only", () => {
  const seen = new Map<string, Set<string>>();
  for (const http of [schedulingApp(), tenantApp()]) {
    const paths = http.openapi().paths as Record<
      string,
      Record<
        string,
        {
          responses: Record<
            string,
            {
              content?: Record<
                string,
                { schema?: { allOf?: { properties?: { code?: { enum?: string[] } } }[] } }
              >;
            }
          >;
        }
      >
    >;
    for (const operations of Object.values(paths)) {
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const codes = response.content?.["application/problem+json"]?.schema?.allOf?.[1]
            ?.properties?.code?.enum ?? [];
          for (const code of codes) seen.set(code, new Set([...(seen.get(code) ?? []), status]));
        }
      }
    }
  }
  const statuses = Object.fromEntries([...seen].map(([code, s]) => [code, [...s].join(",")]));
  assert.deepEqual(
    {
      MALFORMED_JSON: statuses.MALFORMED_JSON,
      INVALID_TENANT: statuses.INVALID_TENANT,
      TENANT_REQUIRED: statuses.TENANT_REQUIRED,
      UNAUTHORIZED: statuses.UNAUTHORIZED,
      FORBIDDEN: statuses.FORBIDDEN,
      REQUEST_TIMEOUT: statuses.REQUEST_TIMEOUT,
      CONCURRENT_UPDATE: statuses.CONCURRENT_UPDATE,
      CONTENT_TOO_LARGE: statuses.CONTENT_TOO_LARGE,
      UNSUPPORTED_MEDIA_TYPE: statuses.UNSUPPORTED_MEDIA_TYPE,
      VALIDATION_FAILED: statuses.VALIDATION_FAILED,
      INVALID_INPUT: statuses.INVALID_INPUT,
      SERVICE_UNAVAILABLE: statuses.SERVICE_UNAVAILABLE,
    },
    {
      MALFORMED_JSON: "400",
      INVALID_TENANT: "400",
      TENANT_REQUIRED: "400",
      UNAUTHORIZED: "401",
      FORBIDDEN: "403",
      REQUEST_TIMEOUT: "408",
      CONCURRENT_UPDATE: "409",
      CONTENT_TOO_LARGE: "413",
      UNSUPPORTED_MEDIA_TYPE: "415",
      VALIDATION_FAILED: "422",
      INVALID_INPUT: "422",
      SERVICE_UNAVAILABLE: "503",
    },
  );
});

Deno.test("A route's document follows what it does: no body codes without a body, no 401 on a Public route", () => {
  const paths = schedulingApp().openapi().paths as Record<
    string,
    Record<string, { responses: Record<string, unknown> }>
  >;
  const health = Object.keys(paths["/health"]!.get!.responses);
  assert.ok(!health.includes("401"), "a Public route reads no credential");
  assert.ok(!health.includes("413") && !health.includes("415"));
  const agenda = Object.keys(paths["/practices/{practiceId}/agenda"]!.get!.responses);
  assert.ok(
    !agenda.includes("413") && !agenda.includes("409"),
    "a query reads no body, sends no command",
  );
  assert.ok(agenda.includes("503") && agenda.includes("403"));
  const ping = Object.keys(paths["/partners/ping"]!.get!.responses);
  assert.ok(
    !ping.includes("503") && !ping.includes("409"),
    "a route without a bus runs no use case",
  );
});

Deno.test("The error codes guide states the problem type the answers carry", async () => {
  const readme = await Deno.readTextFile(
    new URL("../../docs/guides/error-codes.md", import.meta.url),
  );
  const response = await schedulingApp().fetch(cancel("{", receptionist));
  const type = (await response.json()).type;
  assert.equal(type, "urn:kit:problem:malformed-json");
  assert.ok(readme.includes("`urn:kit:problem:validation-failed` for `VALIDATION_FAILED`"));
  assert.ok(!readme.includes("urn:kit:problem:<code>`"), "the old form is gone");
});
