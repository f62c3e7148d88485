import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { z } from "zod";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  eventsPlugin,
  HandlesEvent,
  InMemoryOutbox,
  InMemoryTransactions,
} from "../mod.ts";
import type { LogRecord } from "../logging.ts";
import { TestClock } from "../testing.ts";
import { outboxGaugesCase, outboxPoints, TestReader } from "../testdata/outbox_gauges_case.ts";
import { OutboxGauges } from "./outbox_gauges.ts";
import type { Outbox } from "./outbox.ts";

Deno.test("InMemoryOutbox: kit.outbox.backlog and kit.outbox.lag by handler, read once per 10 s", async () => {
  await outboxGaugesCase(new InMemoryOutbox(), new InMemoryTransactions());
});

const Booked = defineIntegrationEvent({
  type: "scheduling.appointment.booked",
  version: 1,
  payload: z.object({ appointmentId: z.string() }),
});

@HandlesEvent(Booked, { name: "billing.invoice" })
class Invoice {
  handle(): Promise<void> {
    return Promise.resolve();
  }
}

function app(options: { start?: boolean } = {}) {
  const reader = new TestReader();
  const application = composeApplication({
    modules: [defineModule("billing", { declarations: [Invoice] })],
    clock: new TestClock(),
    plugins: {
      events: eventsPlugin({
        outbox: new InMemoryOutbox(),
        metrics: { meterProvider: new MeterProvider({ readers: [reader] }) },
        ...options,
      }),
    },
  });
  return { application, reader };
}

Deno.test("eventsPlugin publishes the outbox gauges of its handlers while the relay runs", async () => {
  const { application, reader } = app();
  assert.deepEqual(await outboxPoints(reader), {});
  await application.start();
  try {
    assert.deepEqual(await outboxPoints(reader), {
      "kit.outbox.backlog": { "billing.invoice": 0 },
      "kit.outbox.lag": { "billing.invoice": 0 },
    });
  } finally {
    await application.stop();
  }
});

Deno.test("eventsPlugin publishes no outbox gauge in a process that does not run the relay", async () => {
  const { application, reader } = app({ start: false });
  await application.start();
  assert.deepEqual(await outboxPoints(reader), {});
  await application.stop();
});

Deno.test("OutboxGauges observe nothing when the outbox does not answer in time, and log it", async () => {
  const clock = new TestClock();
  const reader = new TestReader();
  const logged: LogRecord[] = [];
  const gauges = new OutboxGauges({
    outbox: { backlog: () => new Promise(() => {}) } as unknown as Outbox,
    handlers: ["billing.invoice"],
    clock,
    meterProvider: new MeterProvider({ readers: [reader] }),
    logger: { log: (record) => void logged.push(record) },
  });
  gauges.start();
  const collected = outboxPoints(reader);
  await turns();
  clock.advance(5_000);
  assert.deepEqual(await collected, {});
  assert.deepEqual(logged.map((r) => [r.level, r.component, r.code]), [
    ["warn", "events.metrics", "OUTBOX_BACKLOG_UNREAD"],
  ]);
  gauges.stop();
});
