import assert from "node:assert/strict";
import { z } from "zod";
import {
  Command,
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  type ErrorReporter,
  EventPublisher,
  eventsPlugin,
  type HandlerContext,
  Handles,
  HandlesEvent,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  type IntegrationEvent,
  ProcessedEvents,
  processOnce,
  systemActor,
} from "../mod.ts";
import type { EventsApi } from "../outbox.ts";
import { TestClock } from "../testing.ts";

const AppointmentBooked = defineIntegrationEvent({
  type: "scheduling.appointment.booked",
  version: 1,
  payload: z.object({ appointmentId: z.string().min(1) }),
});

class BookAppointment extends Command<void> {
  constructor(readonly appointmentId: string, readonly fail = false) {
    super(systemActor);
  }
}

interface World {
  handled: { event: IntegrationEvent<{ appointmentId: string }>; context: HandlerContext }[];
  effects: string[];
  failuresLeft: number;
  reported: unknown[];
}

function build(world: World, options: { events?: boolean } = {}) {
  @Handles(BookAppointment)
  class BookAppointmentHandler {
    constructor(private readonly events: EventPublisher) {}
    async handle(command: BookAppointment): Promise<void> {
      await this.events.publish(AppointmentBooked, { appointmentId: command.appointmentId });
      if (command.fail) throw new Error("booking refused");
    }
  }
  @HandlesEvent(AppointmentBooked, { name: "notifications.appointments-appointment-booked" })
  class NotifyPatient {
    constructor(private readonly processed: ProcessedEvents) {}
    async handle(
      event: IntegrationEvent<{ appointmentId: string }>,
      context: HandlerContext,
    ): Promise<void> {
      world.handled.push({ event, context });
      if (world.failuresLeft > 0) {
        world.failuresLeft--;
        throw new Error("mailer down");
      }
      await processOnce(
        this.processed,
        "notifications.appointments-appointment-booked",
        event,
        () => {
          world.effects.push(event.payload.appointmentId);
          return Promise.resolve();
        },
      );
    }
  }
  const clock = new TestClock("2026-03-01T09:00:00Z");
  const outbox = new InMemoryOutbox();
  const reporter: ErrorReporter = { report: (error) => void world.reported.push(error) };
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [BookAppointmentHandler],
        dependencies: new Map([[BookAppointmentHandler, [EventPublisher]]]),
      }),
      defineModule("notifications", {
        declarations: [NotifyPatient],
        dependencies: new Map([[NotifyPatient, [ProcessedEvents]]]),
      }),
    ],
    clock,
    errorReporter: reporter,
    plugins: {
      events: eventsPlugin({
        outbox,
        processedEvents: new InMemoryProcessedEvents(),
        start: false,
        ...(options.events ? { events: [AppointmentBooked] } : {}),
      }),
    },
  });
  return { app, clock, outbox, events: app.events as EventsApi };
}

function newWorld(): World {
  return { handled: [], effects: [], failuresLeft: 0, reported: [] };
}

Deno.test("An event published by a command is delivered to its handler after commit", async () => {
  const world = newWorld();
  const { app, events } = build(world);
  await app.commands.execute(new BookAppointment("a1"));
  assert.equal(await events.relay.deliverDue(), 1);
  assert.deepEqual(world.effects, ["a1"]);
  const { event, context } = world.handled[0]!;
  assert.equal(event.type, "scheduling.appointment.booked");
  assert.equal(event.version, 1);
  assert.equal(event.occurredAt, "2026-03-01T09:00:00.000Z");
  assert.equal(context.execution.origin, "event");
  assert.equal(context.execution.causationId, event.id);
  assert.equal(context.execution.correlationId, event.correlationId);
  assert.ok(context.unitOfWork !== undefined);
  assert.equal(await events.relay.deliverDue(), 0, "delivered once");
});

Deno.test("An outbox event written in a rolled-back command is never delivered", async () => {
  const world = newWorld();
  const { app, events, outbox } = build(world);
  await assert.rejects(
    () => app.commands.execute(new BookAppointment("a2", true)),
    /booking refused/,
  );
  assert.equal(await events.relay.deliverDue(), 0);
  assert.deepEqual(outbox.list(), []);
  assert.deepEqual(world.handled, []);
});

Deno.test("A redelivered event is handled once by an idempotent consumer", async () => {
  const world = newWorld();
  const { app, events, outbox } = build(world);
  await app.commands.execute(new BookAppointment("a3"));
  await events.relay.deliverDue();
  const [delivery] = outbox.list();
  outbox.redeliver(delivery!.eventId);
  assert.equal(await events.relay.deliverDue(), 1);
  assert.equal(world.handled.length, 2, "the handler saw the event twice");
  assert.deepEqual(world.effects, ["a3"], "its effect happened once");
});

Deno.test("A failing handler is retried after the backoff and its error reported", async () => {
  const world = newWorld();
  world.failuresLeft = 1;
  const { app, events, clock } = build(world);
  await app.commands.execute(new BookAppointment("a4"));
  assert.equal(await events.relay.deliverDue(), 0);
  assert.equal(world.reported.length, 1);
  assert.equal(await events.relay.deliverDue(), 0, "not due before the backoff");
  clock.advance(1_000);
  assert.equal(await events.relay.deliverDue(), 1);
  assert.deepEqual(world.effects, ["a4"]);
});

Deno.test("Publishing outside a unit of work, or a payload failing its schema, is refused", async () => {
  const world = newWorld();
  const { events } = build(world);
  await assert.rejects(
    () => events.publisher.publish(AppointmentBooked, { appointmentId: "a5" }),
    {
      message:
        "Event 'scheduling.appointment.booked' is published outside a unit of work: publish it from a command handler",
    },
  );
  await assert.rejects(
    () => AppointmentBooked.create({ appointmentId: "" }),
    /The payload of event 'scheduling.appointment.booked' v1 is invalid: appointmentId: /,
  );
});

Deno.test("An event type not listed among the declared events is refused", async () => {
  const world = newWorld();
  const Other = defineIntegrationEvent({
    type: "scheduling.calendar.cleared",
    version: 1,
    payload: z.object({}),
  });
  const { events } = build(world, { events: true });
  await assert.rejects(
    () => events.publisher.publish(Other, {}),
    /Unknown event type 'scheduling.calendar.cleared'/,
  );
});

Deno.test("Event declarations and handler names are checked", () => {
  const payload = z.object({});
  assert.throws(
    () => defineIntegrationEvent({ type: "Booked", version: 1, payload }),
    /Invalid event type "Booked"/,
  );
  assert.throws(
    () => defineIntegrationEvent({ type: "a.b.c", version: 0, payload }),
    /Event 'a.b.c' needs a version that is an integer from 1, got 0/,
  );
  assert.throws(
    () => HandlesEvent(AppointmentBooked, { name: "notify" }),
    /Invalid event handler name "notify": use '<context>.<reaction>'/,
  );
});

Deno.test("Two handlers with one name are refused when the application is composed", () => {
  @HandlesEvent(AppointmentBooked, { name: "analytics.count-bookings" })
  class CountA {
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  @HandlesEvent(AppointmentBooked, { name: "analytics.count-bookings" })
  class CountB {
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      composeApplication({
        modules: [defineModule("analytics", { declarations: [CountA, CountB] })],
        plugins: { events: eventsPlugin({ outbox: new InMemoryOutbox(), start: false }) },
      }),
    {
      message:
        "Event handler name 'analytics.count-bookings' is used twice: by 'CountA' and by 'CountB'",
    },
  );
});

Deno.test("With start, the relay polls on the clock's interval and stops with the application", async () => {
  const world = newWorld();
  const clock = new TestClock("2026-03-01T09:00:00Z");
  @HandlesEvent(AppointmentBooked, { name: "analytics.count-bookings" })
  class CountBookings {
    handle(event: IntegrationEvent<{ appointmentId: string }>): Promise<void> {
      world.effects.push(event.payload.appointmentId);
      return Promise.resolve();
    }
  }
  @Handles(BookAppointment)
  class Book {
    constructor(private readonly events: EventPublisher) {}
    async handle(command: BookAppointment): Promise<void> {
      await this.events.publish(AppointmentBooked, { appointmentId: command.appointmentId });
    }
  }
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [Book],
        dependencies: new Map([[Book, [EventPublisher]]]),
      }),
      defineModule("analytics", { declarations: [CountBookings] }),
    ],
    clock,
    plugins: { events: eventsPlugin({ outbox: new InMemoryOutbox(), pollIntervalMs: 500 }) },
  });
  await app.start();
  await app.commands.execute(new BookAppointment("a9"));
  // The loop found nothing at start and sleeps on the test clock until it moves.
  for (let i = 0; i < 5 && clock.pendingSleepers === 0; i++) await Promise.resolve();
  assert.deepEqual(world.effects, []);
  clock.advance(500);
  for (let i = 0; i < 50 && world.effects.length === 0; i++) {
    await new Promise((r) => queueMicrotask(() => r(null)));
  }
  assert.deepEqual(world.effects, ["a9"]);
  await app.stop();
  assert.equal(clock.pendingSleepers, 0);
});
