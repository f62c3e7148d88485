/**
 * The appointment-confirmation process on the in-memory stores (outbox, jobs, process store),
 * driven with the test clock: when it asks for confirmation and releases, for a booking three
 * days, ten hours and one hour ahead. Its two commands are answered here (recorded), so that the
 * spec holds the process alone; `test/e2e/appointment-confirmation.spec.ts` runs it with the real
 * commands over HTTP on PostgreSQL.
 */
import assert from "node:assert/strict";
import {
  accessPolicy,
  composeApplication,
  defineModule,
  eventsPlugin,
  Handles,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  runInScope,
  systemActor,
  TransactionManager,
} from "@kit/kernel";
import { InMemoryProcessStore, ProcessStore } from "@kit/kernel/process";
import { TestClock } from "@kit/kernel/testing";
import { CommandBus } from "@kit/kernel";
import { InMemoryJobStore, jobsPlugin } from "@kit/jobs";
import { AppointmentBooked } from "../../published-language/appointment-booked.event.ts";
import { ReleaseUnconfirmed } from "../commands/release-unconfirmed/release-unconfirmed.command.ts";
import { RequestConfirmation } from "../commands/request-confirmation/request-confirmation.command.ts";
import {
  AppointmentConfirmation,
  type AppointmentConfirmationState,
} from "./appointment-confirmation.process.ts";

const hour = 3_600_000;
const t0 = new Date("2026-03-02T08:00:00.000Z");

/** The process in an application of its own, its commands recorded as `<command> <id> [at]`. */
function processApplication() {
  const clock = new TestClock(t0);
  const sent: string[] = [];
  @Handles(RequestConfirmation)
  class RecordRequest {
    handle(command: RequestConfirmation): Promise<{ requested: boolean }> {
      sent.push(`request ${command.appointmentId} ${command.releasedAt.toISOString()}`);
      return Promise.resolve({ requested: true });
    }
  }
  @Handles(ReleaseUnconfirmed)
  class RecordRelease {
    handle(command: ReleaseUnconfirmed): Promise<{ released: boolean }> {
      sent.push(`release ${command.appointmentId}`);
      return Promise.resolve({ released: true });
    }
  }
  const application = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [AppointmentConfirmation, RecordRequest, RecordRelease],
        dependencies: new Map([[AppointmentConfirmation, [CommandBus]]]),
      }),
    ],
    clock,
    accessPolicy: accessPolicy({ grants: {} }),
    providers: [{ provide: ProcessStore, provider: { useValue: new InMemoryProcessStore() } }],
    plugins: {
      events: eventsPlugin({
        outbox: new InMemoryOutbox(),
        processedEvents: new InMemoryProcessedEvents(),
        start: false,
      }),
      backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }),
    },
  });
  const transactions = application.resolve(TransactionManager);
  const store = application.resolve(ProcessStore);
  const execution = { origin: "test", actor: systemActor, tenantId: "t1", correlationId: "spec" };
  return {
    clock,
    sent,
    /** Publishes the booking in a unit of work of the tenant (as BookAppointment does). */
    book: (appointmentId: string, startsAt: Date) =>
      transactions.run((unitOfWork) =>
        runInScope(
          { execution, unitOfWork },
          () =>
            application.events.publisher.publish(AppointmentBooked, {
              appointmentId,
              calendarId: "cal-1",
              appointmentTypeId: "checkup",
              patientId: "p1",
              startsAt: startsAt.toISOString(),
              endsAt: new Date(startsAt.getTime() + hour / 2).toISOString(),
            }),
        )
      ),
    /** Delivers the events, then runs the jobs due at `at`. */
    async runAt(at: Date): Promise<void> {
      await application.events.relay.deliverDue();
      clock.set(at);
      await application.backgroundJobs.runDue();
    },
    instance: (key: string) =>
      transactions.run((unit) =>
        store.instanceLoad({
          process: AppointmentConfirmation.processName,
          tenantId: "t1",
          key,
          unit,
        })
      ),
  };
}

Deno.test("booked three days ahead: asked a day before its start, released two hours before", async () => {
  const app = processApplication();
  const startsAt = new Date(t0.getTime() + 72 * hour);
  await app.book("a1", startsAt);
  await app.runAt(t0);
  const started = await app.instance("a1");
  assert.equal(started?.status, "active");
  assert.deepEqual(started?.state as AppointmentConfirmationState, {
    appointmentId: "a1",
    startsAt: startsAt.toISOString(),
    confirmed: false,
  });
  assert.deepEqual(
    Object.entries(started!.deadlines).map(([name, d]) => `${name}@${d.at}`).sort(),
    ["release@2026-03-05T06:00:00.000Z", "remind@2026-03-04T08:00:00.000Z"],
  );

  await app.runAt(new Date("2026-03-04T07:59:59.999Z"));
  assert.deepEqual(app.sent, [], "nothing before its time");
  await app.runAt(new Date("2026-03-04T08:00:00.000Z"));
  assert.deepEqual(app.sent, ["request a1 2026-03-05T06:00:00.000Z"]);
  await app.runAt(new Date("2026-03-05T06:00:00.000Z"));
  assert.deepEqual(app.sent.slice(1), ["release a1"]);
  assert.equal((await app.instance("a1"))?.status, "completed");
});

Deno.test("booked ten hours ahead: asked at once, released two hours before", async () => {
  const app = processApplication();
  await app.book("a2", new Date(t0.getTime() + 10 * hour));
  await app.runAt(t0);
  assert.deepEqual(app.sent, ["request a2 2026-03-02T16:00:00.000Z"], "asked at once");
  await app.runAt(new Date("2026-03-02T16:00:00.000Z"));
  assert.deepEqual(app.sent.slice(1), ["release a2"]);
});

Deno.test("booked an hour ahead: nothing asked or released; the instance ends at the start", async () => {
  const app = processApplication();
  const startsAt = new Date(t0.getTime() + hour);
  await app.book("a3", startsAt);
  await app.runAt(t0);
  assert.deepEqual(Object.keys((await app.instance("a3"))!.deadlines), ["close"]);
  await app.runAt(startsAt);
  assert.deepEqual(app.sent, []);
  assert.equal((await app.instance("a3"))?.status, "completed");
});
