/**
 * The case of `kit.outbox.backlog` and `kit.outbox.lag` every outbox passes (in memory and on
 * PostgreSQL), read through an OpenTelemetry SDK's in-memory reader.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type DataPoint, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { TestClock } from "../time/test_clock.ts";
import type { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import type { IntegrationEvent } from "../events/integration_event.ts";
import type { Outbox } from "../events/outbox.ts";
import { OutboxGauges } from "../events/outbox_gauges.ts";

/** A reader whose `collect()` a test calls. */
export class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The `kit.outbox.*` points of a collection, by metric name then handler. */
export async function outboxPoints(
  reader: MetricReader,
): Promise<Record<string, Record<string, number>>> {
  const { resourceMetrics } = await reader.collect();
  const out: Record<string, Record<string, number>> = {};
  for (const scope of resourceMetrics.scopeMetrics) {
    if (scope.scope.name !== "kit") continue;
    for (const metric of scope.metrics) {
      if (!metric.descriptor.name.startsWith("kit.outbox.")) continue;
      const byHandler: Record<string, number> = {};
      for (const point of metric.dataPoints as DataPoint<number>[]) {
        byHandler[String(point.attributes.handler)] = point.value;
      }
      out[metric.descriptor.name] = byHandler;
    }
  }
  return out;
}

const t0 = Date.parse("2026-03-01T09:00:00.000Z");
const at = (ms: number): Date => new Date(t0 + ms);

function event(id: string, occurredMs: number): IntegrationEvent {
  return {
    id,
    type: "scheduling.appointment.booked",
    version: 1,
    occurredAt: at(occurredMs).toISOString(),
    payload: { appointmentId: id },
  };
}

/**
 * Appends two events for two handlers, then reads the gauges as deliveries are done and one
 * dies: pending deliveries and the age of the oldest, by handler (0 for a handler with none),
 * read once per 10 s, not read once stopped.
 */
export async function outboxGaugesCase(
  outbox: Outbox,
  transactions: TransactionManager,
): Promise<void> {
  outbox.subscribe(
    new Map([["scheduling.appointment.booked", ["billing.invoice", "notifications.notify"]]]),
  );
  const clock = new TestClock(at(90_000));
  const reader = new TestReader();
  let reads = 0;
  const counted = {
    backlog: () => {
      reads++;
      return outbox.backlog();
    },
  } as unknown as Outbox;
  const gauges = new OutboxGauges({
    outbox: counted,
    handlers: ["billing.invoice", "notifications.notify", "reports.daily"],
    clock,
    meterProvider: new MeterProvider({ readers: [reader] }),
  });
  assert.deepEqual(await outboxPoints(reader), {}, "nothing observed before start");
  gauges.start();
  for (const e of [event("e1", 0), event("e2", 30_000)]) {
    await transactions.run((unit) => outbox.append(e, unit));
  }
  assert.deepEqual(await outboxPoints(reader), {
    "kit.outbox.backlog": { "billing.invoice": 2, "notifications.notify": 2, "reports.daily": 0 },
    "kit.outbox.lag": { "billing.invoice": 90, "notifications.notify": 90, "reports.daily": 0 },
  });
  assert.equal(reads, 1);

  const notified = await outbox.claim({
    now: clock.now(),
    limit: 2,
    leaseMs: 60_000,
    handlers: { "notifications.notify": 2 },
  });
  await transactions.run((unit) => outbox.complete(notified, unit));
  clock.advance(9_999);
  assert.equal((await outboxPoints(reader))["kit.outbox.backlog"]?.["notifications.notify"], 2);
  assert.equal(reads, 1, "one read per 10 s");
  clock.advance(1);
  const [first] = await outbox.claim({
    now: clock.now(),
    limit: 1,
    leaseMs: 60_000,
    handlers: { "billing.invoice": 1 },
  });
  await outbox.fail(first!, { error: "gone", now: clock.now() });
  assert.deepEqual(await outboxPoints(reader), {
    "kit.outbox.backlog": { "billing.invoice": 1, "notifications.notify": 0, "reports.daily": 0 },
    "kit.outbox.lag": { "billing.invoice": 70, "notifications.notify": 0, "reports.daily": 0 },
  });
  assert.equal(reads, 2);

  gauges.stop();
  clock.advance(10_000);
  await reader.collect();
  assert.equal(reads, 2, "no read once stopped");
}
