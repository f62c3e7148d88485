import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { z } from "zod";
import {
  AuthorizedQuery,
  composeApplication,
  defineModule,
  definePermissions,
  Query,
  Requires,
} from "@kit/kernel";
import { Authenticated, Controller, defineRoute, httpPlugin, Public, zodSchema } from "../mod.ts";
import { schedulingApp } from "../testdata/scheduling_app.ts";

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
    "400",
    "401",
    "403",
    "404",
    "408",
    "409",
    "413",
    "415",
    "422",
    "503",
  ]);
  assert.match(cancel.responses["401"]!.description, /^- UNAUTHORIZED: /);
  assert.match(cancel.responses["403"]!.description, /^- FORBIDDEN: /);
  assert.equal(cancel.responses["404"]!.description, "- APPOINTMENT_NOT_FOUND");
  assert.match(cancel.responses["409"]!.description, /^- APPOINTMENT_ENDED\n- CONCURRENT_UPDATE: /);
  assert.match(cancel.responses["422"]!.description, /^- INVALID_INPUT: .*\n- VALIDATION_FAILED: /);
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
  assert.deepEqual(Object.keys(put.responses).sort(), [
    "200",
    "201",
    "400",
    "401",
    "403",
    "409",
    "422",
    "503",
  ]);
});

Deno.test("The document states integer bounds only where the schema does, and its servers and license", () => {
  @Controller({
    method: "GET",
    path: "/counts",
    guards: [Public],
    query: zodSchema(
      z.object({ any: z.coerce.number().int(), days: z.coerce.number().int().min(1).max(31) }),
    ),
    response: { status: 204 },
  })
  class Counts {
    handle(): void {}
  }
  const document = composeApplication({
    modules: [defineModule("counts", { declarations: [Counts] })],
    plugins: {
      http: httpPlugin({
        info: { title: "Counts", version: "1.0.0", license: { name: "MIT", identifier: "MIT" } },
        servers: [{ url: "/", description: "This server" }],
      }),
    },
  }).http.openapi() as {
    info: { license?: unknown };
    servers?: unknown;
    paths: Record<
      string,
      { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }
    >;
  };
  const [any, days] = document.paths["/counts"]!.get.parameters;
  assert.deepEqual(any!.schema, { type: "integer" });
  assert.equal(days!.schema.minimum, 1);
  assert.equal(days!.schema.maximum, 31);
  assert.deepEqual(document.info.license, { name: "MIT", identifier: "MIT" });
  assert.deepEqual(document.servers, [{ url: "/", description: "This server" }]);
});

Deno.test("Each operation whose permissions are known lists them as x-permissions: its own and its guards'", async () => {
  const permissions = definePermissions("billing", {
    "invoice.read": { description: "See invoices" },
    "invoice.send": { description: "Send invoices" },
  });
  const SendsInvoices = {
    name: "SendsInvoices",
    documents: { errors: ["UNAUTHORIZED", "FORBIDDEN"], permissions: ["invoice.send"] },
    check(): void {},
  } as const;
  @Controller({
    method: "POST",
    path: "/invoices/:id/sending",
    guards: [SendsInvoices],
    params: zodSchema(z.object({ id: z.string() })),
    permissions: [permissions["invoice.send"], permissions["invoice.read"]],
    response: { status: 204 },
  })
  class SendInvoice {
    handle(): void {}
  }
  @Controller({
    method: "GET",
    path: "/invoices",
    guards: [Authenticated],
    response: { status: 204 },
  })
  class ListInvoices {
    handle(): void {}
  }
  @Requires(permissions["invoice.read"])
  class ReadInvoice extends AuthorizedQuery<void> {}
  class Unguarded extends Query<void> {}
  const read = defineRoute({
    method: "GET",
    path: "/invoices/:id",
    operationId: "readInvoice",
    security: ["bearer"],
    permissions: [ReadInvoice, Unguarded],
    responses: { 204: { description: "The invoice" } },
  }, () => ({ status: 204 }));
  const document = composeApplication({
    modules: [defineModule("billing", { declarations: [SendInvoice, ListInvoices] })],
    plugins: {
      http: httpPlugin({
        authenticators: [{ scheme: "bearer", authenticate: () => undefined }],
        routes: [read],
        info: { title: "Billing", version: "1.0.0" },
      }),
    },
  }).http.openapi() as { paths: Record<string, Record<string, Record<string, unknown>>> };
  assert.deepEqual(
    document.paths["/invoices/{id}/sending"]!.post!["x-permissions"],
    ["invoice.read", "invoice.send"],
    "the controller's and its guard's, each once, sorted",
  );
  assert.deepEqual(
    document.paths["/invoices/{id}"]!.get!["x-permissions"],
    ["invoice.read"],
    "the @Requires of the query it sends; a query without one requires none",
  );
  assert.equal("x-permissions" in document.paths["/invoices"]!.get!, false, "none known: none");
  const result = await new Validator().validate(structuredClone(document));
  assert.equal(result.valid, true, JSON.stringify(result.errors));
  assert.throws(
    () =>
      defineRoute({
        method: "GET",
        path: "/x",
        operationId: "x",
        security: [],
        permissions: [""],
        responses: { 204: { description: "x" } },
      }, () => ({ status: 204 })).compile(
        {} as never,
        { authenticators: [], securitySchemes: {}, security: [] } as never,
      ),
    TypeError,
  );
});
