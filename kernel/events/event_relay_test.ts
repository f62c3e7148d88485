import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { until } from "../../test_support/until.ts";
import { z } from "zod";
import {
  type AnyClass,
  Command,
  composeApplication,
  ConcurrentUpdateError,
  defineIntegrationEvent,
  defineModule,
  EventPublisher,
  eventsPlugin,
  Handles,
  HandlesEvent,
  type Injectable,
  InMemoryOutbox,
  InMemoryTransactions,
  type IntegrationEvent,
  runInScope,
  systemActor,
  userActor,
} from "../mod.ts";
import type { ErrorReport } from "../logging.ts";
import {
  EventRelay,
  type EventRelaySettings,
  type EventsApi,
  type OutboxClaimParams,
  type OutboxDelivery,
} from "../outbox.ts";
import { TestClock } from "../testing.ts";

const Booked = defineIntegrationEvent({
  type: "scheduling.appointment.booked",
  version: 1,
  payload: z.object({ n: z.number().int() }),
});

const Cancelled = defineIntegrationEvent({
  type: "scheduling.appointment.cancelled",
  version: 1,
  payload: z.object({ n: z.number().int() }),
});

class Cancel extends Command<void> {
  constructor(readonly n: number) {
    super(systemActor);
  }
}

@Handles(Cancel)
class CancelHandler {
  constructor(private readonly events: EventPublisher) {}
  async handle(command: Cancel): Promise<void> {
    await this.events.publish(Cancelled, { n: command.n });
  }
}

class Book extends Command<void> {
  constructor(readonly n: number, actor = systemActor) {
    super(actor);
  }
}

@Handles(Book)
class BookHandler {
  constructor(private readonly events: EventPublisher) {}
  async handle(command: Book): Promise<void> {
    await this.events.publish(Booked, { n: command.n });
  }
}

/** An outbox that records its claims, and can hold one until told to go on. */
class WatchedOutbox extends InMemoryOutbox {
  readonly claims: OutboxClaimParams[] = [];
  failuresLeft = 0;
  hold: PromiseWithResolvers<void> | undefined;

  override async claim(params: OutboxClaimParams): Promise<OutboxDelivery[]> {
    this.claims.push(params);
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error("connection refused");
    }
    const claimed = await super.claim(params);
    if (this.hold) await this.hold.promise;
    return claimed;
  }
}

interface Reported {
  error: unknown;
  report: ErrorReport;
}

function setup(handlers: AnyClass[], settings: EventRelaySettings & { start?: boolean } = {}) {
  const clock = new TestClock("2026-03-01T09:00:00Z");
  const outbox = new WatchedOutbox();
  const reported: Reported[] = [];
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [BookHandler, CancelHandler],
        dependencies: new Map<AnyClass, readonly Injectable[]>([
          [BookHandler, [EventPublisher]],
          [CancelHandler, [EventPublisher]],
        ]),
      }),
      defineModule("notifications", { declarations: handlers }),
    ],
    clock,
    errorReporter: { report: (error, report) => void reported.push({ error, report }) },
    plugins: { events: eventsPlugin({ outbox, start: false, ...settings }) },
  });
  const events = app.events as EventsApi;
  const book = async (...numbers: number[]) => {
    for (const n of numbers) await app.commands.execute(new Book(n));
  };
  return { app, clock, outbox, reported, events, relay: events.relay, book };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

Deno.test("EventRelay claims a batch in one call: 250 deliveries in two claims, not 250", async () => {
  const seen: number[] = [];
  @HandlesEvent(Booked, { name: "notifications.count-bookings" })
  class Count {
    handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      seen.push(event.payload.n);
      return Promise.resolve();
    }
  }
  const { outbox, relay, book } = setup([Count]);
  await book(...range(250));
  assert.equal(await relay.deliverDue(), 200, "two lanes of 100 (the defaults)");
  assert.equal(outbox.claims.length, 1);
  assert.deepEqual(outbox.claims[0]!.handlers, { "notifications.count-bookings": 200 });
  assert.equal(await relay.deliverDue(), 50);
  assert.equal(outbox.claims.length, 2);
  assert.deepEqual(seen.toSorted((a, b) => a - b), range(250), "each once");
  assert.equal(await relay.deliverDue(), 0);
});

Deno.test("EventRelay runs different handlers at once, and at most handlerConcurrency deliveries of one", async () => {
  const gate = Promise.withResolvers<void>();
  const mails = { active: 0, most: 0, done: 0 };
  const counted: number[] = [];
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    async handle(): Promise<void> {
      mails.active++;
      mails.most = Math.max(mails.most, mails.active);
      await gate.promise;
      mails.active--;
      mails.done++;
    }
  }
  @HandlesEvent(Cancelled, { name: "analytics.count-cancellations" })
  class CountCancellations {
    handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      counted.push(event.payload.n);
      return Promise.resolve();
    }
  }
  const { app, relay, book } = setup([SendMail, CountCancellations], {
    batchSize: 1,
    handlerConcurrency: 2,
    concurrency: 6,
  });
  await book(...range(4));
  await app.commands.execute(new Cancel(9));
  const round = relay.deliverDue();
  await until(() => mails.active === 2 && counted.length === 1, "two mails wait, a count ran");
  assert.equal(mails.most, 2, "two mails at once, though more lanes were free");
  assert.deepEqual(counted, [9], "the count did not wait for the mails");
  gate.resolve();
  assert.equal(await round, 3);
  assert.equal(await relay.deliverDue(), 2);
  assert.equal(mails.most, 2);
  assert.equal(mails.done, 4);
});

Deno.test("EventRelay with handlerConcurrency 1 hands a handler its events in the order they occurred", async () => {
  const started: number[] = [];
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    async handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      started.push(event.payload.n);
      // The first of each batch takes longer: a second lane would overtake it.
      if (event.payload.n % 3 === 0) await turns();
    }
  }
  const { relay, book, clock } = setup([SendMail], { handlerConcurrency: 1, batchSize: 3 });
  for (const n of range(9).reverse()) {
    await book(n);
    clock.advance(1);
  }
  let delivered = 0;
  while (delivered < 9) delivered += await relay.deliverDue();
  assert.deepEqual(started, range(9).reverse());
});

Deno.test("EventRelay parks a delivery failing maxAttempts times as dead, reports it, and tries it no more", async () => {
  let calls = 0;
  let failing = true;
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    handle(): Promise<void> {
      calls++;
      return failing ? Promise.reject(new Error("mailer down")) : Promise.resolve();
    }
  }
  const { relay, book, clock, outbox, reported, events } = setup([SendMail], {
    maxAttempts: 3,
    retryDelay: (attempt) => attempt * 1_000,
  });
  await book(1);
  for (let attempt = 1; attempt <= 3; attempt++) {
    assert.equal(await relay.deliverDue(), 0);
    assert.equal(calls, attempt);
    clock.advance(attempt * 1_000);
  }
  assert.deepEqual(
    reported.map((r) => [r.report.details?.attempt, r.report.details?.outcome]),
    [[1, "retried"], [2, "retried"], [3, "dead"]],
  );
  clock.advance(86_400_000);
  assert.equal(await relay.deliverDue(), 0);
  assert.equal(calls, 3, "a dead delivery is not claimed");
  assert.deepEqual(outbox.list().map((d) => [d.attempts, d.delivered, d.dead]), [[3, false, true]]);
  const [dead] = await events.deadDeliveries();
  assert.equal(dead!.handler, "notifications.send-mail");
  assert.equal(dead!.attempts, 3);
  assert.equal(dead!.lastError, "mailer down");
  assert.equal(dead!.deadAt.toISOString(), "2026-03-01T09:00:03.000Z");

  failing = false;
  assert.equal(await events.retryDead({ handler: "notifications.send-mail" }), 1);
  assert.deepEqual(outbox.list().map((d) => [d.attempts, d.dead]), [[0, false]]);
  assert.equal(await relay.deliverDue(), 1, "revived: due now, from attempt 1");
  assert.deepEqual(await events.deadDeliveries(), []);
  assert.equal(await events.retryDead({ handler: "notifications.send-mail" }), 0);
  await assert.rejects(
    () => events.retryDead({} as never),
    /retryDead\(\) revives the dead deliveries of an eventId, a handler or both/,
  );
});

Deno.test("EventRelay retries a delivery that met a deadlock or a serialization failure at once, without reporting it", async () => {
  const conflicts = [
    ConcurrentUpdateError.ofTransaction(
      Object.assign(new Error("deadlock detected"), { code: "40P01" }),
    ),
    Object.assign(new Error("could not serialize access"), { code: "40001" }),
  ];
  let calls = 0;
  @HandlesEvent(Booked, { name: "analytics.count-bookings" })
  class CountBookings {
    handle(): Promise<void> {
      const conflict = conflicts[calls++];
      return conflict ? Promise.reject(conflict) : Promise.resolve();
    }
  }
  const { relay, book, reported, outbox } = setup([CountBookings], {
    retryDelay: () => 60_000,
  });
  await book(1);
  assert.equal(await relay.deliverDue(), 0);
  assert.equal(await relay.deliverDue(), 0, "due again at once, the clock not moved");
  assert.equal(await relay.deliverDue(), 1);
  assert.equal(calls, 3);
  assert.deepEqual(reported, [], "a conflict is no error to report");
  assert.deepEqual(outbox.list().map((d) => [d.delivered, d.dead]), [[true, false]]);
});

Deno.test("Dead deliveries are seen and revived within the work's tenants only", async () => {
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    handle(): Promise<void> {
      return Promise.reject(new Error("mailer down"));
    }
  }
  const { app, relay, events } = setup([SendMail], { maxAttempts: 1 });
  await app.commands.execute(new Book(1, userActor("ann", { tenants: ["practice-a"] })));
  await app.commands.execute(new Book(2, userActor("bob", { tenants: ["practice-b"] })));
  await relay.deliverDue();
  const tenantsOf = async () => (await events.deadDeliveries()).map((d) => d.tenantId);
  assert.deepEqual(
    (await tenantsOf()).sort(),
    ["practice-a", "practice-b"],
    "an operator sees all",
  );
  const inWork = <T>(tenantId: string | undefined, fn: () => Promise<T>) =>
    runInScope({
      execution: {
        origin: "test",
        actor: userActor("bob", { tenants: ["practice-b"] }),
        correlationId: "c1",
        ...(tenantId ? { tenantId } : {}),
      },
    }, fn);
  assert.deepEqual(await inWork("practice-b", tenantsOf), ["practice-b"]);
  assert.deepEqual(await inWork(undefined, tenantsOf), [], "work of no tenant reaches none");
  assert.equal(
    await inWork(undefined, () => events.retryDead({ handler: "notifications.send-mail" })),
    0,
  );
  assert.equal(
    await inWork("practice-b", () => events.retryDead({ handler: "notifications.send-mail" })),
    1,
  );
  assert.deepEqual(await tenantsOf(), ["practice-a"], "practice-a's stays dead");
});

Deno.test("EventRelay.stop lets the delivery under way finish and gives back the rest of its batch", async () => {
  const gate = Promise.withResolvers<void>();
  const seen: number[] = [];
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    async handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      seen.push(event.payload.n);
      await gate.promise;
    }
  }
  const { app, book, outbox, relay } = setup([SendMail], { start: true, batchSize: 5 });
  await book(...range(5));
  await app.start();
  await until(() => seen.length === 1, "the first delivery started");
  const stopped = app.stop();
  gate.resolve();
  await stopped;
  assert.deepEqual(seen, [0], "nothing started after stop");
  assert.deepEqual(
    outbox.list().map((d) => [d.attempts, d.delivered]),
    [[1, true], [0, false], [0, false], [0, false], [0, false]],
  );
  assert.equal(await relay.deliverDue(), 4, "given back: due at once, not after a lease");
});

Deno.test("EventRelay.stop gives back what a claim still under way returns", async () => {
  const seen: number[] = [];
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      seen.push(event.payload.n);
      return Promise.resolve();
    }
  }
  const { app, book, outbox, clock } = setup([SendMail], { start: true });
  await book(1, 2);
  outbox.hold = Promise.withResolvers();
  await app.start();
  await until(() => outbox.claims.length === 1, "the relay claims");
  const stopped = app.stop();
  outbox.hold.resolve();
  await stopped;
  assert.deepEqual(seen, []);
  assert.deepEqual(outbox.list().map((d) => [d.attempts, d.delivered]), [[0, false], [0, false]]);
  assert.equal(clock.pendingSleepers, 0);
});

Deno.test("EventRelay backs off on the clock when claims fail, reports each failure, and resumes", async () => {
  const seen: number[] = [];
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      seen.push(event.payload.n);
      return Promise.resolve();
    }
  }
  const { app, book, outbox, clock, reported } = setup([SendMail], { start: true });
  await book(7);
  outbox.failuresLeft = 2;
  await app.start();
  await until(() => reported.length === 1 && clock.pendingSleepers === 1, "the first failure");
  assert.deepEqual(reported[0]!.report, {
    origin: "event",
    details: { stage: "claim", failures: 1 },
  });
  clock.advance(999);
  assert.equal(clock.pendingSleepers, 1, "the back-off (1 s) still runs");
  assert.equal(outbox.claims.length, 1);
  clock.advance(1);
  await until(() => reported.length === 2 && clock.pendingSleepers === 1, "the second failure");
  assert.equal(reported[1]!.report.details?.failures, 2);
  clock.advance(1_999);
  assert.equal(clock.pendingSleepers, 1, "the back-off doubles (2 s)");
  assert.equal(outbox.claims.length, 2);
  clock.advance(1);
  await until(() => seen.length === 1, "the delivery after the outage");
  assert.deepEqual(seen, [7]);
  await app.stop();
  assert.equal(clock.pendingSleepers, 0);
});

Deno.test("A busy handler does not put off the poll that finds another handler's retry", async () => {
  const gates = [0, 1, 2].map(() => Promise.withResolvers<void>());
  let mails = 0;
  const counted: number[] = [];
  @HandlesEvent(Booked, { name: "notifications.send-mail" })
  class SendMail {
    async handle(): Promise<void> {
      await gates[mails++]!.promise;
    }
  }
  @HandlesEvent(Cancelled, { name: "analytics.count-cancellations" })
  class CountCancellations {
    handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      counted.push(event.payload.n);
      // The first attempt fails: it is due again a second later, found by a poll.
      return counted.length === 1 ? Promise.reject(new Error("store busy")) : Promise.resolve();
    }
  }
  const { app, book, clock } = setup([SendMail, CountCancellations], {
    start: true,
    batchSize: 1,
    handlerConcurrency: 1,
    concurrency: 2,
    pollIntervalMs: 1_000,
    retryDelay: () => 1_000,
  });
  await book(1, 2, 3);
  await app.commands.execute(new Cancel(9));
  await app.start();
  await until(() => mails === 1 && counted.length === 1 && clock.pendingSleepers === 1, "start");
  clock.advance(600);
  gates[0]!.resolve();
  await until(() => mails === 2 && clock.pendingSleepers === 1, "the next mail");
  clock.advance(600);
  await until(() => counted.length === 2, "the retry, 1.2 s after the first attempt");
  gates[1]!.resolve();
  gates[2]!.resolve();
  await app.stop();
});

Deno.test("EventRelay refuses settings out of range, naming them", () => {
  const relay = (settings: EventRelaySettings) =>
    new EventRelay({
      outbox: new InMemoryOutbox(),
      handlers: new Map(),
      transactions: new InMemoryTransactions(),
      clock: new TestClock(),
      errorReporter: { report: () => {} },
      settings,
    });
  assert.throws(
    () => relay({ batchSize: 0 }),
    { name: "RangeError", message: "The event relay's batchSize must be an integer from 1, got 0" },
  );
  assert.throws(() => relay({ handlerConcurrency: 1.5 }), /handlerConcurrency must be an integer/);
  assert.throws(() => relay({ maxAttempts: -1 }), /maxAttempts must be an integer from 1, got -1/);
  assert.throws(
    () => relay({ pollIntervalMs: Number.NaN }),
    /pollIntervalMs must be a number of milliseconds above 0, got NaN/,
  );
  assert.throws(
    () => relay({ leaseMs: 1_000 }),
    /batchWindowMs \(1000\) must be below its leaseMs \(1000\): a batch would outlive its claim/,
  );
  assert.ok(relay({}) instanceof EventRelay);
});
