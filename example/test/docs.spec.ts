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

Deno.test("every operation closed to anonymous callers lists its permissions as x-permissions", async () => {
  const document = parse(await readFile(root + "openapi/scheduling.yaml", "utf8"));
  type Operation = { security?: unknown[]; "x-permissions"?: string[] };
  const paths = document.paths as Record<string, Record<string, Operation>>;
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const open = Array.isArray(operation.security) && operation.security.length === 0;
      if (open) assert.equal(operation["x-permissions"], undefined, `${method} ${path}`);
      else assert.ok(operation["x-permissions"]?.length, `${method} ${path} lists its permissions`);
    }
  }
  assert.deepEqual(paths["/appointments/{appointmentId}/cancellation"]?.post?.["x-permissions"], [
    "appointment.cancel",
  ]);
  assert.deepEqual(paths["/ops/jobs/jobs/{jobId}/revival"]?.post?.["x-permissions"], [
    "jobs.operate",
  ]);
});

Deno.test("each code is documented under the one status its context declares (PERSON_REGISTERED and ALREADY_INVITED: 409)", async () => {
  const document = parse(await readFile(root + "openapi/scheduling.yaml", "utf8"));
  const statusesOf = new Map<string, Set<string>>();
  type Operation = {
    responses?: Record<string, {
      content?: Record<
        string,
        { schema?: { allOf?: { properties?: { code?: { enum?: string[] } } }[] } }
      >;
    }>;
  };
  for (
    const operations of Object.values(document.paths as Record<string, Record<string, Operation>>)
  ) {
    for (const operation of Object.values(operations)) {
      for (
        const [status, response] of Object.entries(operation.responses ?? {})
      ) {
        const codes: string[] =
          response.content?.["application/problem+json"]?.schema?.allOf?.[1]?.properties?.code
            ?.enum ?? [];
        for (const code of codes) {
          statusesOf.set(code, new Set([...(statusesOf.get(code) ?? []), status]));
        }
      }
    }
  }
  assert.deepEqual([...statusesOf.get("PERSON_REGISTERED") ?? []], ["409"]);
  assert.deepEqual([...statusesOf.get("ALREADY_INVITED") ?? []], ["409"]);
  assert.deepEqual([...statusesOf.get("SLOT_TAKEN") ?? []], ["409"]);
  for (const [code, statuses] of statusesOf) {
    assert.equal(statuses.size, 1, `${code} is documented under ${[...statuses].join(", ")}`);
  }
});

Deno.test("Redocly's recommended lint finds no error and no warning in the OpenAPI document", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "npm:@redocly/cli@2.77.0",
      "lint",
      "--format=json",
      "openapi/scheduling.yaml",
    ],
    cwd: root,
    env: { NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const report = JSON.parse(text.slice(text.indexOf("{")));
  assert.deepEqual(
    report.totals,
    { errors: 0, warnings: 0, ignored: 0 },
    JSON.stringify(report.problems, null, 2),
  );
});

Deno.test("the derived dependency-cruiser configuration is what kit.config.json derives (verify's step)", async () => {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "../cli/main.ts", "depcruise-config", "--check"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
  assert.equal(run.code, 0, output);
});
