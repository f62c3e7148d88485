/**
 * The module builder's forms of `@Handles` and `@HandlesEvent` (`builder.handler`,
 * `builder.eventHandler`): a context declared without a decorator runs as a decorated one does,
 * the same checks refuse the same mistakes, and the compile-time rules of the decorators hold.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import {
  Command,
  CommandBus,
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  EventPublisher,
  eventsPlugin,
  HandlesEvent,
  InMemoryOutbox,
  type IntegrationEvent,
  Query,
  QueryBus,
  systemActor,
} from "../mod.ts";
import type { EventsApi } from "../outbox.ts";
import type { ModuleBuilder } from "../types.ts";
import { eventHandlerDeclarations } from "../events/handles_event.ts";
import { handlerDeclarations } from "../messaging/handles.ts";
import { TestClock } from "../testing.ts";

const AppointmentBooked = defineIntegrationEvent({
  type: "scheduling.appointment.booked",
  version: 1,
  payload: z.object({ appointmentId: z.string().min(1) }),
});

class BookAppointment extends Command<void> {
  constructor(readonly appointmentId: string) {
    super(systemActor);
  }
}

class CountBookings extends Query<number> {
  constructor() {
    super(systemActor);
  }
}

Deno.test("a context declared with builder.handler and builder.eventHandler runs: a command publishes, the event is delivered, a query answers", async () => {
  const booked: string[] = [];
  class BookAppointmentHandler {
    constructor(private readonly events: EventPublisher) {}
    async handle(command: BookAppointment): Promise<void> {
      await this.events.publish(AppointmentBooked, { appointmentId: command.appointmentId });
    }
  }
  class CountBookingsHandler {
    handle(_query: CountBookings): Promise<number> {
      return Promise.resolve(booked.length);
    }
  }
  class RecordBooking {
    constructor(private readonly queries: QueryBus) {}
    handle(event: IntegrationEvent<{ appointmentId: string }>): Promise<void> {
      assert.equal(typeof this.queries.execute, "function", "its dependency was given");
      booked.push(event.payload.appointmentId);
      return Promise.resolve();
    }
  }
  const app = composeApplication({
    modules: [
      defineModule("scheduling", (builder) => {
        builder
          .handler(BookAppointment, BookAppointmentHandler, { deps: [EventPublisher] })
          .handler(CountBookings, CountBookingsHandler);
      }),
      defineModule("reporting", (builder) => {
        builder.eventHandler(AppointmentBooked, RecordBooking, {
          name: "reporting.scheduling-appointment-booked",
          deps: [QueryBus],
        });
      }),
    ],
    clock: new TestClock("2026-03-01T09:00:00Z"),
    plugins: { events: eventsPlugin({ outbox: new InMemoryOutbox(), start: false }) },
  });
  await app.commands.execute(new BookAppointment("a1"));
  assert.equal(await app.queries.execute(new CountBookings()), 0, "delivered after commit");
  assert.equal(await (app.events as EventsApi).relay.deliverDue(), 1);
  assert.deepEqual(booked, ["a1"]);
  assert.equal(await app.queries.execute(new CountBookings()), 1);
  assert.deepEqual(handlerDeclarations.read(BookAppointmentHandler), { message: BookAppointment });
});

Deno.test("builder.eventHandler records what @HandlesEvent records and refuses what it refuses", () => {
  @HandlesEvent(AppointmentBooked, { name: "audit.decorated" })
  class Decorated {
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  class Built {
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  defineModule(
    "audit",
    (b) => void b.eventHandler(AppointmentBooked, Built, { name: "audit.built" }),
  );
  assert.deepEqual(eventHandlerDeclarations.read(Built), {
    ...eventHandlerDeclarations.read(Decorated),
    name: "audit.built",
  });
  class Other {
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      defineModule(
        "audit",
        (b) => void b.eventHandler(AppointmentBooked, Other, { name: "notify" }),
      ),
    { message: `Invalid event handler name "notify": use '<context>.<reaction>' in kebab-case` },
  );
  assert.throws(
    () =>
      defineModule(
        "audit",
        (b) => void b.eventHandler({} as never, Other, { name: "audit.other" }),
      ),
    {
      message:
        "builder.eventHandler(Other) takes an event from defineIntegrationEvent(), got [object Object]",
    },
  );
  class NeedsBus {
    constructor(readonly commands: CommandBus) {}
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      defineModule(
        "audit",
        (b) => void b.eventHandler(AppointmentBooked, NeedsBus, { name: "audit.bus" }),
      ),
    {
      message:
        "builder.eventHandler(NeedsBus) needs deps: the tokens of its 1 constructor parameter(s), in order",
    },
  );
  assert.equal(eventHandlerDeclarations.read(Other), undefined, "nothing recorded when refused");
  assert.equal(eventHandlerDeclarations.read(NeedsBus), undefined, "nothing recorded when refused");
});

Deno.test("builder.handler refuses what is not a message class and missing deps", () => {
  class NeedsBus {
    constructor(readonly commands: CommandBus) {}
    handle(_command: BookAppointment): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () => defineModule("x", (b) => void b.handler(BookAppointment, NeedsBus)),
    {
      message:
        "builder.handler(NeedsBus) needs deps: the tokens of its 1 constructor parameter(s), in order",
    },
  );
  assert.throws(
    () => defineModule("x", (b) => void b.handler("BookAppointment" as never, NeedsBus)),
    { message: "builder.handler(NeedsBus) takes a command or query class, got BookAppointment" },
  );
  assert.equal(handlerDeclarations.read(NeedsBus), undefined, "nothing recorded when refused");
});

Deno.test("the builder's compile-time rules for handlers: the message handle takes, its result, deps of the constructor's types", () => {
  class BookHandler {
    constructor(readonly commands: CommandBus) {}
    handle(_command: BookAppointment): Promise<void> {
      return Promise.resolve();
    }
  }
  class CountHandler {
    handle(_query: CountBookings): Promise<number> {
      return Promise.resolve(1);
    }
  }
  class CountsInText {
    handle(_query: CountBookings): Promise<string> {
      return Promise.resolve("1");
    }
  }
  class ReadsAnotherEvent {
    handle(_event: IntegrationEvent<{ invoiceId: string }>): Promise<void> {
      return Promise.resolve();
    }
  }
  class OnBooked {
    handle(_event: IntegrationEvent<{ appointmentId: string }>): Promise<void> {
      return Promise.resolve();
    }
  }
  const rules = (builder: ModuleBuilder) => {
    // @ts-expect-error the handler's handle takes another message
    builder.handler(CountBookings, BookHandler, { deps: [CommandBus] });
    // @ts-expect-error the handler answers another type than the query's result
    builder.handler(CountBookings, CountsInText);
    // @ts-expect-error a dependency token of another type than the constructor's parameter
    builder.handler(BookAppointment, BookHandler, { deps: [QueryBus] });
    builder.handler(BookAppointment, BookHandler, { deps: [CommandBus] });
    builder.handler(CountBookings, CountHandler);
    // @ts-expect-error the handler reads a payload the event does not carry
    builder.eventHandler(AppointmentBooked, ReadsAnotherEvent, { name: "a.b" });
    // @ts-expect-error an event handler needs its name
    builder.eventHandler(AppointmentBooked, OnBooked, {});
    // @ts-expect-error a dependency token of another type than the constructor's parameter
    builder.eventHandler(AppointmentBooked, BookHandler, { name: "a.b", deps: [QueryBus] });
    builder.eventHandler(AppointmentBooked, OnBooked, { name: "a.b" });
  };
  // Only compiled: the rules are in the types.
  assert.equal(typeof rules, "function");
});
