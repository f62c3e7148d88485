/**
 * The builder style with no hand-written line: `kit init --declarations builder` through the real
 * executable (the generators after it through the same `main`, in this process), a context with an aggregate and its repository, commands (one creating
 * the aggregate and publishing an event, one requiring a permission granted to a role), queries
 * (one a search requiring a permission), a function route, an event handler in another context, a
 * scheduled job, a background job and a process manager. No generated source under `src/` carries
 * a decorator; each class, and each permission, is declared in its context's module file with the
 * builder; the project's `deno task verify` and `deno task test` pass (its repository on PostgreSQL
 * with DATABASE_URL), a caller without a required permission refused.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "../commands/served_project.ts";
import { kitExecutable, kitIn, runIn } from "../commands/test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const databaseUrl = Deno.env.get("DATABASE_URL");

function kit(cwd: string, ...args: string[]): Promise<string> {
  return runIn(cwd, Deno.execPath(), [...kitExecutable, ...args]);
}

/** `kit <args>` run in this process in `cwd`; fails with its output unless it exits 0. */
async function generate(cwd: string, ...args: string[]): Promise<void> {
  const { result, out } = await kitIn(cwd, ...args);
  assert.equal(result, 0, `kit ${args.join(" ")} failed:\n${out}`);
}

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await sources(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const slice: readonly string[] = [
  "generate aggregate scheduling Appointment",
  "generate repository scheduling Appointment",
  "generate integration-event scheduling AppointmentBooked",
  "generate command scheduling BookAppointment --aggregate Appointment --creates --publishes AppointmentBooked",
  "generate command scheduling CancelAppointment --aggregate Appointment",
  "generate query scheduling GetAppointment --aggregate Appointment",
  "generate command scheduling ConfirmAppointment --aggregate Appointment --permission appointment.confirm --grant receptionist",
  "generate query scheduling ListAppointments --search --aggregate Appointment --permission appointment.read --grant receptionist",
  "generate route scheduling GetAppointment --function --path /appointments/:appointmentId",
  "generate integration-handler notifications AppointmentBooked",
  "generate command scheduling SweepCalendar",
  "generate job scheduling SweepHourly --every 1h --command SweepCalendar",
  "generate background-job scheduling CancelLater --command CancelAppointment",
  "generate process-manager scheduling BookingFollowUp --starts-on AppointmentBooked --deadline remind",
];

Deno.test({
  name:
    "the builder style end to end: no decorator in the generated code, each class declared in its module, verify and test green",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const parent = await Deno.makeTempDir({ prefix: "kit-builder-style-" });
    const dir = join(parent, "clinic");
    const database = databaseUrl ? await createTestDatabase(databaseUrl) : undefined;
    try {
      await kit(
        parent,
        ..."init clinic --context scheduling:core --context notifications:generic".split(" "),
        ..."--declarations builder --no-git --link".split(" "),
        checkout,
      );
      assert.equal(
        JSON.parse(await readFile(join(dir, "kit.config.json"), "utf8")).declarations,
        "builder",
      );
      for (const line of slice) await generate(dir, ...line.split(" "));

      const decorated: string[] = [];
      for (const path of await sources(join(dir, "src"))) {
        const text = await readFile(path, "utf8");
        for (const line of text.split("\n")) {
          if (/^\s*@[A-Za-z]/.test(line)) decorated.push(`${path.slice(dir.length + 1)}: ${line}`);
        }
      }
      assert.deepEqual(decorated, [], "no decorator in the generated code");

      const scheduling = await readFile(
        join(dir, "src/contexts/scheduling/scheduling.module.ts"),
        "utf8",
      );
      for (
        const call of [
          /\.handler\(BookAppointment, BookAppointmentHandler, \{\s*deps: \[AppointmentRepository, EventPublisher\]/,
          /\.handler\(CancelAppointment, CancelAppointmentHandler, \{\s*deps: \[AppointmentRepository\]/,
          /\.handler\(GetAppointment, GetAppointmentHandler, \{\s*deps: \[AppointmentRepository\]/,
          /\.handler\(SweepCalendar, SweepCalendarHandler\);/,
          /\.handler\(ConfirmAppointment, ConfirmAppointmentHandler, \{\s*deps: \[AppointmentRepository\]/,
          /\.requires\(\s*ConfirmAppointment,\s*schedulingPermissions\["appointment\.confirm"\],?\s*\);/,
          /\.handler\(ListAppointments, ListAppointmentsHandler, \{\s*deps: \[AppointmentRepository\]/,
          /\.requires\(\s*ListAppointments,\s*schedulingPermissions\["appointment\.read"\],?\s*\);/,
          /^import \{ schedulingPermissions \} from "\.\/scheduling\.permissions\.ts";$/m,
          /\.scheduledJob\(SweepHourly, \{ every: "1h", deps: \[CommandBus\] \}\);/,
          /\.backgroundJob\(CancelLater, \{ deps: \[CommandBus\] \}\);/,
          /\.processManager\(BookingFollowUp, \{\s*name: "scheduling\.booking-follow-up",\s*state: BookingFollowUpState,/,
        ]
      ) assert.match(scheduling, call);
      assert.match(
        await readFile(join(dir, "src/contexts/notifications/notifications.module.ts"), "utf8"),
        /\.eventHandler\(AppointmentBooked, SchedulingAppointmentBookedHandler, \{\s*name: "notifications\.scheduling-appointment-booked",\s*deps: \[ProcessedEvents\],?\s*\}\);/,
      );

      const env: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
      await runIn(dir, Deno.execPath(), ["task", "verify"], env);
      // verify type-checked every file of the project (`deno check .`): the specs run unchecked.
      const tested = await runIn(dir, Deno.execPath(), ["task", "test", "--no-check"], env);
      for (
        const name of [
          /CancelLater enqueued by a user runs what is due as that user, in their tenant \.\.\. ok/,
          /SweepHourly runs once per tick of 1h \.\.\. ok/,
          /BookingFollowUp starts on AppointmentBooked.* \.\.\. ok/,
          /notifications\.scheduling-appointment-booked reacts to an AppointmentBooked once, and not again when it is redelivered \.\.\. ok/,
          /CancelAppointment loads the Appointment and saves it at its next version \.\.\. ok/,
          /ConfirmAppointment loads the Appointment and saves it at its next version \.\.\. ok/,
          /ConfirmAppointment is refused to an actor without appointment\.confirm \.\.\. ok/,
          /ListAppointments is refused to an actor without appointment\.read \.\.\. ok/,
        ]
      ) assert.match(tested, name);
      assert.doesNotMatch(tested, /FAILED/);
    } finally {
      await database?.drop();
      await Deno.remove(parent, { recursive: true });
    }
  },
});
