/**
 * Each kind's plan in the builder style (`"declarations": "builder"` in `kit.config.json`),
 * without a subprocess: the class a decorator would declare is written without one, its
 * decorator's import left out, and the module file of its context declares it with the builder
 * (`builder.handler`, `builder.eventHandler`, `builder.scheduledJob`), its constructor's tokens as
 * `deps` and the imports they need; `kit docs` lists it in CONTEXT.md and leaves it out of the
 * barrel and the manifest. The route and the route group, which only a decorator declares, are
 * refused in one line naming the function route; the function route is written.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion } from "../files/marker_regions.ts";
import { mergeRegions } from "../files/merge_regions.ts";
import { contents, generated, planOf, planProject, written } from "./plan_fixture.ts";

/** No decorator in `text`: no line starting with `@Name` (imports from `@kit/...` are not one). */
function assertUndecorated(text: string, path: string): void {
  assert.doesNotMatch(text, /^\s*@[A-Za-z]/m, `${path} has no decorator`);
}

/** A test in a new project of its own, in the builder style, removed after. */
function builderTest(name: string, fn: (root: string) => Promise<void>): void {
  Deno.test(`builder style: ${name}`, async () => {
    const root = await planProject();
    try {
      const path = join(root, "kit.config.json");
      const config = JSON.parse(await readFile(path, "utf8"));
      await writeFile(path, JSON.stringify({ ...config, declarations: "builder" }, null, 2));
      await fn(root);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

/**
 * Checks what every builder-style plan does for the class at `path` in `context`: written
 * undecorated, declared by `call` in the module's region with `imports`, listed in CONTEXT.md
 * under `listed`, out of the barrel.
 */
function assertDeclaredByBuilder(
  plan: readonly FileWrite[],
  context: string,
  path: string,
  expected: { calls: readonly string[]; imports: readonly string[]; listed: string },
): void {
  const modulePath = `src/contexts/${context}/${context}.module.ts`;
  assertUndecorated(contents(plan, path), path);
  const module = contents(plan, modulePath);
  assert.deepEqual(readRegion(module, "builder-declarations", modulePath), expected.calls);
  assert.deepEqual(readRegion(module, "builder-imports", modulePath), expected.imports);
  assert.match(contents(plan, `src/contexts/${context}/CONTEXT.md`), new RegExp(expected.listed));
  const barrel = contents(plan, `src/contexts/${context}/${context}.declarations.ts`);
  const className = /^export class (\w+)/m.exec(contents(plan, path))![1]!;
  assert.doesNotMatch(barrel, new RegExp(`\\b${className}\\b`), "the module declares it");
}

const s = "src/contexts/scheduling";
const m = `${s}/scheduling.module.ts`;

builderTest(
  "command --permission: the handler declared with builder.handler, its permission with builder.requires, no decorator",
  async (root) => {
    const plan = await planOf(root, "command", ["scheduling", "CancelAppointment"], {
      permission: "appointment.cancel",
    });
    const dir = `${s}/application/commands/cancel-appointment`;
    assert.deepEqual(written(root, plan), [
      `+${dir}/cancel-appointment.command.ts`,
      `+${dir}/cancel-appointment.handler.ts`,
      `+${dir}/cancel-appointment.spec.ts`,
      `~${m}`,
      `~${s}/scheduling.permissions.ts`,
    ]);
    const handler = contents(plan, `${dir}/cancel-appointment.handler.ts`);
    assert.doesNotMatch(handler, /\bHandles\b/);
    assert.match(handler, /^export class CancelAppointmentHandler \{$/m);
    assertDeclaredByBuilder(plan, "scheduling", `${dir}/cancel-appointment.handler.ts`, {
      calls: [
        "builder.handler(CancelAppointment, CancelAppointmentHandler);",
        'builder.requires(CancelAppointment, schedulingPermissions["appointment.cancel"]);',
      ],
      imports: [
        'import { CancelAppointment } from "./application/commands/cancel-appointment/cancel-appointment.command.ts";',
        'import { CancelAppointmentHandler } from "./application/commands/cancel-appointment/cancel-appointment.handler.ts";',
        'import { schedulingPermissions } from "./scheduling.permissions.ts";',
      ],
      listed: "- Handlers: CancelAppointmentHandler\n",
    });
    // The message: an AuthorizedCommand, with neither the decorator nor what only it imported.
    const message = contents(plan, `${dir}/cancel-appointment.command.ts`);
    assertUndecorated(message, `${dir}/cancel-appointment.command.ts`);
    assert.match(
      message,
      /^import \{ type Actor, AuthorizedCommand \} from "@kit\/kernel";\n\n\/\*\*/,
    );
    assert.doesNotMatch(message, /Requires|schedulingPermissions/);
    assert.match(message, /^export class CancelAppointment extends AuthorizedCommand<void> \{$/m);
    assert.match(
      contents(plan, `${s}/scheduling.permissions.ts`),
      /"appointment\.cancel": \{ description:/,
    );
  },
);

builderTest(
  "messages requiring permissions, one after the other: each its builder.requires, the permissions imported once",
  async (root) => {
    await generated(root, "aggregate", ["scheduling", "Appointment"]);
    await generated(root, "repository", ["scheduling", "Appointment"]);
    await generated(root, "command", ["scheduling", "BookAppointment"], {
      aggregate: "Appointment",
      creates: true,
      permission: "appointment.book",
    });
    await generated(root, "command", ["scheduling", "ConfirmAppointment"], {
      aggregate: "Appointment",
      permission: "appointment.confirm",
      grant: "receptionist",
    });
    const plan = await planOf(root, "query", ["scheduling", "ListAppointments"], {
      aggregate: "Appointment",
      search: true,
      permission: "appointment.read",
    });
    const module = contents(plan, m);
    assert.deepEqual(
      readRegion(module, "builder-declarations", m).filter((call) => call.includes(".requires(")),
      [
        'builder.requires(BookAppointment, schedulingPermissions["appointment.book"]);',
        'builder.requires(ConfirmAppointment, schedulingPermissions["appointment.confirm"]);',
        'builder.requires(ListAppointments, schedulingPermissions["appointment.read"]);',
      ],
    );
    assert.equal(module.match(/\{ schedulingPermissions \}/g)?.length, 1, "imported once");
    // CONTEXT.md lists the messages the module gives a permission, as it lists @Requires ones.
    const listed = contents(plan, `${s}/CONTEXT.md`);
    for (const message of ["BookAppointment", "ConfirmAppointment", "ListAppointments"]) {
      assert.match(listed, new RegExp(`^- Messages: .*\\b${message}\\b`, "m"), message);
    }
    const query = `${s}/application/queries/list-appointments/list-appointments.query.ts`;
    assertUndecorated(contents(plan, query), query);
    assert.match(contents(plan, query), /extends AuthorizedQuery</);
    assert.doesNotMatch(contents(plan, query), /Requires|schedulingPermissions/);
  },
);

Deno.test("decorator style: command --permission keeps @Requires on the message and writes no builder.requires", async () => {
  const root = await planProject();
  try {
    const plan = await planOf(root, "command", ["scheduling", "CancelAppointment"], {
      permission: "appointment.cancel",
    });
    const dir = `${s}/application/commands/cancel-appointment`;
    assert.match(
      contents(plan, `${dir}/cancel-appointment.command.ts`),
      /^@Requires\(schedulingPermissions\["appointment\.cancel"\]\)\nexport class CancelAppointment extends AuthorizedCommand<void>/m,
    );
    assert.ok(!written(root, plan).includes(`~${m}`), "the module file is left as it is");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

builderTest(
  "command --aggregate and query --aggregate: the repository port as deps, imported from its file",
  async (root) => {
    await generated(root, "aggregate", ["scheduling", "Appointment"]);
    await generated(root, "repository", ["scheduling", "Appointment"]);
    await generated(root, "command", ["scheduling", "BookAppointment"], {
      aggregate: "Appointment",
      creates: true,
    });
    const command = await planOf(root, "command", ["scheduling", "CancelAppointment"], {
      aggregate: "Appointment",
    });
    const dir = `${s}/application/commands/cancel-appointment`;
    assertDeclaredByBuilder(command, "scheduling", `${dir}/cancel-appointment.handler.ts`, {
      calls: [
        "builder.handler(BookAppointment, BookAppointmentHandler, { deps: [AppointmentRepository] });",
        "builder.handler(CancelAppointment, CancelAppointmentHandler, { deps: [AppointmentRepository] });",
      ],
      imports: [
        'import { AppointmentRepository } from "./application/ports/appointment-repository.ts";',
        'import { BookAppointment } from "./application/commands/book-appointment/book-appointment.command.ts";',
        'import { BookAppointmentHandler } from "./application/commands/book-appointment/book-appointment.handler.ts";',
        'import { CancelAppointment } from "./application/commands/cancel-appointment/cancel-appointment.command.ts";',
        'import { CancelAppointmentHandler } from "./application/commands/cancel-appointment/cancel-appointment.handler.ts";',
      ],
      listed: "- Handlers: BookAppointmentHandler, CancelAppointmentHandler\n",
    });
    await generated(root, "command", ["scheduling", "CancelAppointment"], {
      aggregate: "Appointment",
    });
    const query = await planOf(root, "query", ["scheduling", "GetAppointment"], {
      aggregate: "Appointment",
    });
    const queryDir = `${s}/application/queries/get-appointment`;
    const module = contents(query, m);
    assert.ok(
      readRegion(module, "builder-declarations", m).includes(
        "builder.handler(GetAppointment, GetAppointmentHandler, { deps: [AppointmentRepository] });",
      ),
    );
    assertUndecorated(contents(query, `${queryDir}/get-appointment.handler.ts`), queryDir);
    assert.equal(module.match(/kit:begin builder-declarations/g)?.length, 1);
    assert.equal(module.match(/AppointmentRepository \}/g)?.length, 1, "imported once");
  },
);

builderTest(
  "command --enqueues: the handler's JobQueue a dependency from the kernel",
  async (root) => {
    await generated(root, "command", ["scheduling", "ClearDay"]);
    await generated(root, "background-job", ["scheduling", "ClearLater"], { command: "ClearDay" });
    const plan = await planOf(root, "command", ["scheduling", "PlanClearing"], {
      enqueues: "ClearLater",
    });
    const dir = `${s}/application/commands/plan-clearing`;
    const handler = contents(plan, `${dir}/plan-clearing.handler.ts`);
    assertUndecorated(handler, dir);
    assert.match(handler, /^import type \{ JobQueue \} from "@kit\/kernel";$/m);
    const module = contents(plan, m);
    assert.ok(
      readRegion(module, "builder-declarations", m).includes(
        "builder.handler(PlanClearing, PlanClearingHandler, { deps: [JobQueue] });",
      ),
      module,
    );
    assert.ok(
      readRegion(module, "builder-imports", m).includes('import { JobQueue } from "@kit/kernel";'),
    );
  },
);

builderTest(
  "query --permission: the handler declared with builder.handler, its permission with builder.requires",
  async (root) => {
    const plan = await planOf(root, "query", ["scheduling", "CountAppointments"], {
      permission: "appointment.read",
    });
    const dir = `${s}/application/queries/count-appointments`;
    assertDeclaredByBuilder(plan, "scheduling", `${dir}/count-appointments.handler.ts`, {
      calls: [
        "builder.handler(CountAppointments, CountAppointmentsHandler);",
        'builder.requires(CountAppointments, schedulingPermissions["appointment.read"]);',
      ],
      imports: [
        'import { CountAppointments } from "./application/queries/count-appointments/count-appointments.query.ts";',
        'import { CountAppointmentsHandler } from "./application/queries/count-appointments/count-appointments.handler.ts";',
        'import { schedulingPermissions } from "./scheduling.permissions.ts";',
      ],
      listed: "- Handlers: CountAppointmentsHandler\n",
    });
    const query = `${dir}/count-appointments.query.ts`;
    assertUndecorated(contents(plan, query), query);
    assert.match(
      contents(plan, query),
      /^export class CountAppointments extends AuthorizedQuery</m,
    );
  },
);

builderTest(
  "integration-handler: declared with builder.eventHandler, its name and ProcessedEvents",
  async (root) => {
    await generated(root, "integration-event", ["scheduling", "AppointmentBooked"]);
    const plan = await planOf(root, "integration-handler", ["notifications", "AppointmentBooked"]);
    const reactions = "src/contexts/notifications/application/reactions";
    const path = `${reactions}/scheduling-appointment-booked.handler.ts`;
    assert.deepEqual(written(root, plan), [
      `+${reactions}/scheduling-appointment-booked.handler.spec.ts`,
      `+${path}`,
      "~src/contexts/notifications/notifications.module.ts",
    ]);
    assert.doesNotMatch(contents(plan, path), /HandlesEvent/);
    assertDeclaredByBuilder(plan, "notifications", path, {
      calls: [
        'builder.eventHandler(AppointmentBooked, SchedulingAppointmentBookedHandler, { name: "notifications.scheduling-appointment-booked", deps: [ProcessedEvents] });',
      ],
      imports: [
        'import { AppointmentBooked } from "../scheduling/published-language/appointment-booked.event.ts";',
        'import { ProcessedEvents } from "@kit/kernel";',
        'import { SchedulingAppointmentBookedHandler } from "./application/reactions/scheduling-appointment-booked.handler.ts";',
      ],
      listed: "- Event handlers: SchedulingAppointmentBookedHandler\n",
    });
  },
);

builderTest(
  "job: declared with builder.scheduledJob, its interval and its CommandBus",
  async (root) => {
    await generated(root, "command", ["scheduling", "SendReminders"]);
    const plan = await planOf(root, "job", ["scheduling", "RemindHourly"], {
      every: "1h",
      command: "SendReminders",
    });
    const path = `${s}/application/background/remind-hourly.job.ts`;
    assert.deepEqual(written(root, plan), [
      `+${path}`,
      `+${s}/application/background/remind-hourly.spec.ts`,
      `~${m}`,
    ]);
    const job = contents(plan, path);
    assert.match(
      job,
      /^import \{ type ScheduledTick \} from "@kit\/jobs";$|^import type \{ ScheduledTick \} from "@kit\/jobs";$/m,
    );
    assert.doesNotMatch(job, /\bScheduled\(/);
    assertDeclaredByBuilder(plan, "scheduling", path, {
      calls: [
        "builder.handler(SendReminders, SendRemindersHandler);",
        'builder.scheduledJob(RemindHourly, { every: "1h", deps: [CommandBus] });',
      ],
      imports: [
        'import { CommandBus } from "@kit/kernel";',
        'import { RemindHourly } from "./application/background/remind-hourly.job.ts";',
        'import { SendReminders } from "./application/commands/send-reminders/send-reminders.command.ts";',
        'import { SendRemindersHandler } from "./application/commands/send-reminders/send-reminders.handler.ts";',
      ],
      listed: "- Scheduled jobs: RemindHourly\n",
    });
    // Without a command: no dependency, no deps.
    const bare = await planOf(root, "job", ["scheduling", "Sweep"], { every: "5m" });
    assert.ok(
      readRegion(contents(bare, m), "builder-declarations", m).includes(
        'builder.scheduledJob(Sweep, { every: "5m" });',
      ),
    );
  },
);

builderTest(
  "route and route-group: refused in one line naming the function route, which is written",
  async (root) => {
    await generated(root, "command", ["scheduling", "CancelAppointment"], {
      permission: "appointment.cancel",
    });
    await assert.rejects(
      () => planOf(root, "route", ["scheduling", "CancelAppointment"], { path: "/cancellations" }),
      (error: Error) => {
        assert.equal(error.message.split("\n").length, 1);
        assert.match(error.message, /"declarations": "builder".*@Controller/);
        assert.match(
          error.message,
          /kit generate route scheduling CancelAppointment --function --path <\/path>$/,
        );
        return true;
      },
    );
    await assert.rejects(
      () => planOf(root, "route-group", ["scheduling", "Appointments"]),
      /"declarations": "builder".*@RouteGroup/,
    );
    const plan = await planOf(root, "route", ["scheduling", "CancelAppointment"], {
      function: true,
      path: "/cancellations",
    });
    const route = contents(plan, `${s}/presentation/http/cancel-appointment.route.ts`);
    assertUndecorated(route, "the function route");
    assert.match(route, /defineRoute\(/);
    // Its permission is declared by builder.requires in the module, not on the class: the route
    // still answers FORBIDDEN to a caller without it, and documents it.
    assert.match(route, /errors: \["FORBIDDEN"/);
  },
);

builderTest(
  "process-manager: declared with builder.processManager, its options in the module",
  async (root) => {
    await generated(root, "integration-event", ["scheduling", "AppointmentBooked"]);
    await generated(root, "integration-event", ["scheduling", "AppointmentConfirmed"]);
    const plan = await planOf(root, "process-manager", ["scheduling", "AppointmentConfirmation"], {
      "starts-on": "AppointmentBooked",
      handles: ["AppointmentConfirmed"],
      deadline: ["remind"],
    });
    const path = `${s}/application/processes/appointment-confirmation.process.ts`;
    const process = contents(plan, path);
    assert.doesNotMatch(process, /\bProcessManager\b|\bonEvent\b/);
    assert.match(process, /^export class AppointmentConfirmation \{$/m);
    assertDeclaredByBuilder(plan, "scheduling", path, {
      calls: [
        'builder.processManager(AppointmentConfirmation, { name: "scheduling.appointment-confirmation", state: AppointmentConfirmationState, startsOn: [onEvent(AppointmentBooked, { key: (p) => p.id, transition: "onAppointmentBooked" })], handles: [onEvent(AppointmentConfirmed, { key: (p) => p.id, transition: "onAppointmentConfirmed" })], deadlines: { remind: "remind" } });',
      ],
      imports: [
        'import { AppointmentBooked } from "./published-language/appointment-booked.event.ts";',
        'import { AppointmentConfirmation } from "./application/processes/appointment-confirmation.process.ts";',
        'import { AppointmentConfirmationState } from "./application/processes/appointment-confirmation.process.ts";',
        'import { AppointmentConfirmed } from "./published-language/appointment-confirmed.event.ts";',
        'import { onEvent } from "@kit/kernel/process";',
      ],
      listed: "- Process managers: AppointmentConfirmation\n",
    });
  },
);

builderTest(
  "two workers' declarations in one module merge: kit resolve keeps both sides' entries",
  async (root) => {
    await generated(root, "command", ["scheduling", "OpenDay"]);
    const base = await readFile(join(root, m), "utf8");
    const ours = contents(await planOf(root, "command", ["scheduling", "CloseDay"]), m);
    const theirs = contents(await planOf(root, "job", ["scheduling", "Sweep"], { every: "5m" }), m);
    const merged = await mergeRegions({ base, ours, theirs }, () => Promise.resolve(undefined));
    assert.ok(merged !== undefined, "the sides differ only in kit's regions");
    assert.deepEqual(readRegion(merged, "builder-declarations", m), [
      "builder.handler(CloseDay, CloseDayHandler);",
      "builder.handler(OpenDay, OpenDayHandler);",
      'builder.scheduledJob(Sweep, { every: "5m" });',
    ]);
    assert.equal(readRegion(merged, "builder-imports", m).length, 5);
  },
);
