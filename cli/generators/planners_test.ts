/**
 * Each kind's plan (`FileWrite[]`), without a subprocess: the files `kit generate <kind>` writes
 * in a new project (unformatted, as the planner answers them, before `deno fmt`), which are new,
 * which shared files change, and what the main ones say. The derived files every plan carries
 * (barrels, manifests, CONTEXT.md, the context map, the dependency-cruiser config) are `kit
 * docs`'s, tested with it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readRegion } from "../files/marker_regions.ts";
import { contents, generated, planOf, planProject, written } from "./plan_fixture.ts";

/** A test in a new project of its own, removed after. */
function planTest(name: string, fn: (root: string) => Promise<void>): void {
  Deno.test(name, async () => {
    const root = await planProject();
    try {
      await fn(root);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

const s = "src/contexts/scheduling";

planTest("context: its module, permissions and layers, composed and recorded", async (root) => {
  const plan = await planOf(root, "context", ["billing"], { kind: "supporting" });
  const layers = [
    "application/background",
    "application/commands",
    "application/ports",
    "application/queries",
    "domain",
    "infrastructure",
    "presentation/http",
    "published-language",
  ].map((layer) => `+src/contexts/billing/${layer}/.gitkeep`);
  assert.deepEqual(
    written(root, plan),
    [
      ...layers,
      "+src/contexts/billing/billing.module.ts",
      "+src/contexts/billing/billing.permissions.ts",
      "~kit.config.json",
      "~src/platform/compose-application.ts",
    ].sort(),
  );
  const compose = contents(plan, "src/platform/compose-application.ts");
  assert.ok(readRegion(compose, "modules", "compose").includes("billingModule,"));
  const config = JSON.parse(contents(plan, "kit.config.json"));
  assert.deepEqual(
    config.contexts.find((context: { name: string }) => context.name === "billing"),
    { name: "billing", kind: "supporting" },
  );
});

planTest("aggregate: the aggregate, its builder and its spec, inside its context", async (root) => {
  const plan = await planOf(root, "aggregate", ["scheduling", "Appointment"]);
  assert.deepEqual(written(root, plan), [
    `+${s}/domain/appointment.builder.ts`,
    `+${s}/domain/appointment.spec.ts`,
    `+${s}/domain/appointment.ts`,
  ]);
  assert.match(contents(plan, `${s}/domain/appointment.ts`), /export class Appointment\b/);
});

planTest(
  "repository: port, memory and PostgreSQL adapters, migration, registered",
  async (root) => {
    await generated(root, "aggregate", ["scheduling", "Appointment"]);
    const plan = await planOf(root, "repository", ["scheduling", "Appointment"]);
    assert.deepEqual(written(root, plan), [
      `+${s}/application/ports/appointment-repository.ts`,
      `+${s}/domain/scheduling-errors.spec.ts`,
      `+${s}/domain/scheduling-errors.ts`,
      `+${s}/infrastructure/appointment.memory-repository.ts`,
      `+${s}/infrastructure/appointment.postgres-repository.ts`,
      `+${s}/infrastructure/appointment.repository.spec.ts`,
      `+${s}/infrastructure/migrations/0001-create-appointments.ts`,
      "~src/platform/compose-application.ts",
      "~src/platform/database/migrations.ts",
    ]);
    const list = contents(plan, "src/platform/database/migrations.ts");
    assert.deepEqual(readRegion(list, "migrations", "migrations.ts"), [
      "m0001SchedulingCreateAppointments,",
    ]);
    const compose = contents(plan, "src/platform/compose-application.ts");
    assert.match(compose, /^\s+schedulingAppointmentRepository,$/m);
    assert.match(compose, /^\s+schedulingAppointmentRepositoryOnPostgres,$/m);
  },
);

planTest(
  "command: message, handler and spec; its permission declared and granted",
  async (root) => {
    await generated(root, "integration-event", ["scheduling", "AppointmentCancelled"]);
    const plan = await planOf(root, "command", ["scheduling", "CancelAppointment"], {
      permission: "appointment.cancel",
      grant: "front-desk",
      publishes: "AppointmentCancelled",
    });
    const dir = `${s}/application/commands/cancel-appointment`;
    assert.deepEqual(written(root, plan), [
      `+${dir}/cancel-appointment.command.ts`,
      `+${dir}/cancel-appointment.handler.ts`,
      `+${dir}/cancel-appointment.spec.ts`,
      `~${s}/scheduling.permissions.ts`,
      "~src/platform/auth/role.ts",
    ]);
    assert.match(contents(plan, `${s}/scheduling.permissions.ts`), /"appointment\.cancel"/);
    assert.match(contents(plan, "src/platform/auth/role.ts"), /"?front-desk"?: \[/);
    assert.match(contents(plan, `${dir}/cancel-appointment.handler.ts`), /AppointmentCancelled/);
  },
);

planTest(
  "command --aggregate: the handler loads and saves at the version it loaded",
  async (root) => {
    await generated(root, "aggregate", ["scheduling", "Appointment"]);
    await generated(root, "repository", ["scheduling", "Appointment"]);
    const plan = await planOf(root, "command", ["scheduling", "CancelAppointment"], {
      aggregate: "Appointment",
    });
    const dir = `${s}/application/commands/cancel-appointment`;
    assert.deepEqual(written(root, plan), [
      `+${dir}/cancel-appointment.command.ts`,
      `+${dir}/cancel-appointment.handler.ts`,
      `+${dir}/cancel-appointment.spec.ts`,
      `~${s}/domain/scheduling-errors.spec.ts`,
      `~${s}/domain/scheduling-errors.ts`,
    ]);
    assert.match(contents(plan, `${s}/domain/scheduling-errors.ts`), /APPOINTMENT_NOT_FOUND/);
    assert.match(
      contents(plan, `${dir}/cancel-appointment.handler.ts`),
      /const loaded = await this\.appointments\.get\(command\.appointmentId\);[^]*await this\.appointments\.save\(appointment, loaded\.version\);/,
    );
  },
);

planTest("query --search --aggregate: a search over the aggregate's repository", async (root) => {
  await generated(root, "aggregate", ["scheduling", "Appointment"]);
  await generated(root, "repository", ["scheduling", "Appointment"]);
  const plan = await planOf(root, "query", ["scheduling", "ListAppointments"], {
    permission: "appointment.read",
    search: true,
    aggregate: "Appointment",
  });
  const dir = `${s}/application/queries/list-appointments`;
  assert.deepEqual(written(root, plan), [
    `+${dir}/list-appointments.handler.ts`,
    `+${dir}/list-appointments.query.ts`,
    `+${dir}/list-appointments.spec.ts`,
    `~${s}/scheduling.permissions.ts`,
  ]);
  assert.match(contents(plan, `${dir}/list-appointments.handler.ts`), /this\.appointments\./);
});

planTest("error-code: declared with its status in the context's errors", async (root) => {
  const plan = await planOf(root, "error-code", ["scheduling", "SLOT_TAKEN"], {
    status: "409",
    description: "The slot is booked already",
  });
  assert.deepEqual(written(root, plan), [
    `+${s}/domain/scheduling-errors.spec.ts`,
    `+${s}/domain/scheduling-errors.ts`,
  ]);
  const errors = contents(plan, `${s}/domain/scheduling-errors.ts`);
  assert.match(errors, /SLOT_TAKEN/);
  assert.match(errors, /409/);
  assert.match(errors, /The slot is booked already/);
});

planTest(
  "integration-event and -handler: the published event, a handler in another context",
  async (root) => {
    const event = await planOf(root, "integration-event", ["scheduling", "AppointmentBooked"]);
    assert.deepEqual(written(root, event), [
      `+${s}/published-language/appointment-booked.event.spec.ts`,
      `+${s}/published-language/appointment-booked.event.ts`,
    ]);
    await generated(root, "integration-event", ["scheduling", "AppointmentBooked"]);
    const handler = await planOf(root, "integration-handler", [
      "notifications",
      "AppointmentBooked",
    ]);
    const reactions = "src/contexts/notifications/application/reactions";
    assert.deepEqual(written(root, handler), [
      `+${reactions}/scheduling-appointment-booked.handler.spec.ts`,
      `+${reactions}/scheduling-appointment-booked.handler.ts`,
    ]);
    assert.match(
      contents(handler, `${reactions}/scheduling-appointment-booked.handler.ts`),
      /published-language\/appointment-booked\.event\.ts/,
    );
  },
);

planTest("background-job and job: a job running a command, once or on a schedule", async (root) => {
  await generated(root, "command", ["scheduling", "CancelAppointment"]);
  const once = await planOf(root, "background-job", ["scheduling", "ClearCalendar"], {
    command: "CancelAppointment",
  });
  assert.deepEqual(written(root, once), [
    `+${s}/application/background/clear-calendar.job.ts`,
    `+${s}/application/background/clear-calendar.spec.ts`,
  ]);
  assert.match(
    contents(once, `${s}/application/background/clear-calendar.job.ts`),
    /new CancelAppointment\(/,
  );
  const scheduled = await planOf(root, "job", ["scheduling", "SendReminders"], {
    every: "1h",
    command: "CancelAppointment",
  });
  const paths = written(root, scheduled);
  assert.ok(paths.every((path) => path.startsWith(`+${s}/`)), paths.join(", "));
  assert.ok(scheduled.some((write) => /every: "1h"|"1h"/.test(write.contents)));
});

planTest(
  "policy: the policy and its spec, registered with the platform's access policies",
  async (root) => {
    const plan = await planOf(root, "policy", ["scheduling", "OwnAppointments"], {
      permission: "appointment.cancel",
    });
    assert.deepEqual(written(root, plan), [
      `+${s}/application/policies/own-appointments.policy.spec.ts`,
      `+${s}/application/policies/own-appointments.policy.ts`,
      `~${s}/scheduling.permissions.ts`,
      "~src/platform/auth/access-policies.ts",
      "~src/platform/compose-application.ts",
    ]);
  },
);

planTest("port and adapter: the port, then its adapter bound in the platform", async (root) => {
  const port = await planOf(root, "port", ["scheduling", "Calendar"]);
  assert.deepEqual(written(root, port), [`+${s}/application/ports/calendar.ts`]);
  await generated(root, "port", ["scheduling", "Calendar"]);
  const adapter = await planOf(root, "adapter", ["scheduling", "Calendar"]);
  assert.deepEqual(written(root, adapter), [
    `+${s}/infrastructure/calendar.adapter.spec.ts`,
    `+${s}/infrastructure/calendar.adapter.ts`,
    "~src/platform/compose-application.ts",
  ]);
});

planTest(
  "gateway: a port to another context, its adapter, the relationship recorded",
  async (root) => {
    const plan = await planOf(root, "gateway", ["scheduling", "identity"]);
    assert.deepEqual(written(root, plan), [
      `+${s}/application/ports/identity-gateway.ts`,
      `+${s}/infrastructure/identity.gateway.spec.ts`,
      `+${s}/infrastructure/identity.gateway.ts`,
      "~kit.config.json",
      "~src/platform/compose-application.ts",
    ]);
    const config = JSON.parse(contents(plan, "kit.config.json"));
    assert.equal(config.relationships.length, 1);
  },
);

planTest(
  "process-manager: the process, its spec and the first process store, migrated",
  async (root) => {
    await generated(root, "integration-event", ["scheduling", "AppointmentBooked"]);
    const plan = await planOf(root, "process-manager", ["scheduling", "AppointmentConfirmation"], {
      "starts-on": "AppointmentBooked",
      deadline: ["remind"],
    });
    assert.deepEqual(written(root, plan), [
      `+${s}/application/processes/appointment-confirmation.process.spec.ts`,
      `+${s}/application/processes/appointment-confirmation.process.ts`,
      `+${s}/infrastructure/process-store.ts`,
      "~src/platform/compose-application.ts",
      "~src/platform/database/migrate.ts",
    ]);
    assert.match(
      contents(plan, "src/platform/database/migrate.ts"),
      /await migrateProcesses\(sql, \{ schema: "scheduling" \}\);/,
    );
  },
);

planTest(
  "route-group and route: a group for a role, then a route of a command in it",
  async (root) => {
    const group = await planOf(root, "route-group", ["scheduling", "AppointmentRoutes"], {
      role: "patient",
    });
    const http = `${s}/presentation/http`;
    assert.deepEqual(written(root, group), [
      `+${http}/appointment.routes.spec.ts`,
      `+${http}/appointment.routes.ts`,
      "~src/platform/auth/role.ts",
    ]);
    assert.match(contents(group, "src/platform/auth/role.ts"), /"?patient"?: \[\]/);
    await generated(root, "route-group", ["scheduling", "AppointmentRoutes"], { role: "patient" });
    await generated(root, "command", ["scheduling", "CancelAppointment"]);
    const route = await planOf(root, "route", ["scheduling", "CancelAppointment"], {
      group: "AppointmentRoutes",
    });
    assert.deepEqual(written(root, route), [
      `+${http}/cancel-appointment.controller.spec.ts`,
      `+${http}/cancel-appointment.controller.ts`,
    ]);
    const controller = contents(route, `${http}/cancel-appointment.controller.ts`);
    assert.match(controller, /CancelAppointment/);
    assert.match(controller, /AppointmentRoutes/);
  },
);
