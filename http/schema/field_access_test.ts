import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule, userActor } from "@kit/kernel";
import {
  auditGuardRefusals,
  Authenticated,
  classSchema,
  Controller,
  HasRole,
  httpPlugin,
  type HttpRequest,
  withFieldAccess,
  zodSchema,
} from "../mod.ts";
import type { AuditEntry } from "../types.ts";

const appointment = withFieldAccess(
  zodSchema(z.object({ id: z.string(), startsAt: z.string(), internalNote: z.string() }), {
    io: "output",
  }),
  { internalNote: { roles: ["practitioner"] } },
);

class Cancellation {
  static readonly schema = zodSchema(z.object({ reason: z.string().min(1) }));
  declare readonly reason: string;
  get urgent(): boolean {
    return this.reason.startsWith("!");
  }
}

@Controller({
  method: "GET",
  path: "/appointments",
  guards: [Authenticated],
  response: { status: 200, body: zodSchema(z.array(z.any())) },
})
class ListAppointments {
  handle(): unknown[] {
    return [];
  }
}

@Controller({
  method: "GET",
  path: "/appointments/:id",
  guards: [Authenticated],
  response: { status: 200, body: appointment },
})
class ReadAppointment {
  handle(): { id: string; startsAt: string; internalNote: string } {
    return { id: "a1", startsAt: "2026-09-01T09:00:00Z", internalNote: "allergic to latex" };
  }
}

@Controller({
  method: "POST",
  path: "/appointments/:id/cancellation",
  guards: [HasRole("receptionist")],
  body: classSchema(Cancellation),
  response: { status: 200, body: zodSchema(z.object({ urgent: z.boolean() }), { io: "output" }) },
})
class Cancel {
  handle(request: HttpRequest<{ body: Cancellation }>): { urgent: boolean } {
    return { urgent: request.body.urgent };
  }
}

function app(audit: AuditEntry[] = []) {
  return composeApplication({
    modules: [
      defineModule("access", { declarations: [ListAppointments, ReadAppointment, Cancel] }),
    ],
    plugins: {
      http: httpPlugin({
        authenticators: [{
          authenticate: (r) => {
            const roles = r.headers.get("x-roles");
            return roles === null
              ? undefined
              : { actor: userActor("u1", { roles: roles.split(",") }) };
          },
        }],
        onGuardRefusal: auditGuardRefusals({
          record: (entry) => (audit.push(entry), Promise.resolve()),
        }),
      }),
    },
  }).http;
}

Deno.test("A field marked withFieldAccess is left out of the body for callers without access", async () => {
  const http = app();
  const get = async (roles: string) =>
    await (await http.fetch(
      new Request("http://api.test/appointments/a1", { headers: { "x-roles": roles } }),
    ))
      .json();
  assert.deepEqual(await get("patient"), { id: "a1", startsAt: "2026-09-01T09:00:00Z" });
  assert.deepEqual(await get("practitioner"), {
    id: "a1",
    startsAt: "2026-09-01T09:00:00Z",
    internalNote: "allergic to latex",
  });
});

Deno.test("The document marks a reserved field and does not require it", () => {
  const json = appointment.jsonSchema() as {
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };
  assert.deepEqual(json.properties.internalNote!["x-field-access"], ["practitioner"]);
  assert.match(
    String(json.properties.internalNote!.description),
    /Present only for roles practitioner/,
  );
  assert.deepEqual(json.required.sort(), ["id", "startsAt"]);
});

Deno.test("classSchema validates with the class's schema and hands back an instance", async () => {
  const http = app();
  const post = (body: unknown) =>
    http.fetch(
      new Request("http://api.test/appointments/a1/cancellation", {
        method: "POST",
        headers: { "content-type": "application/json", "x-roles": "receptionist" },
        body: JSON.stringify(body),
      }),
    );
  assert.deepEqual(await (await post({ reason: "!fever" })).json(), { urgent: true });
  const refused = await post({ reason: "" });
  assert.equal(refused.status, 422);
  assert.deepEqual((await refused.json()).errors.map((e: { pointer: string }) => e.pointer), [
    "/body/reason",
  ]);
});

Deno.test("auditGuardRefusals writes an identified caller's refusals, not an anonymous one's", async () => {
  const audit: AuditEntry[] = [];
  const http = app(audit);
  const post = (headers: Record<string, string>) =>
    http.fetch(
      new Request("http://api.test/appointments/a1/cancellation", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ reason: "x" }),
      }),
    );
  assert.equal((await post({})).status, 401);
  assert.equal((await post({ "x-roles": "patient" })).status, 403);
  assert.equal(audit.length, 1);
  assert.equal(audit[0]!.actorId, "u1");
  assert.equal(audit[0]!.action, "http.guard-refused");
  assert.deepEqual(audit[0]!.details, {
    route: "POST /appointments/:id/cancellation",
    guard: "HasRole(receptionist)",
    code: "FORBIDDEN",
  });
});
