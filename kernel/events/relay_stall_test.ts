import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import type { LogRecord } from "../logging/logger.ts";
import { TestClock } from "../time/test_clock.ts";
import { InMemoryTransactions } from "../unit_of_work/in_memory_transactions.ts";
import { EventRelay } from "./event_relay.ts";
import type { EventHandler } from "./handles_event.ts";
import { InMemoryOutbox } from "./in_memory_outbox.ts";
import type { OutboxDelivery } from "./outbox.ts";

/** An outbox whose claims hang until the test lets them answer, with deliveries pending. */
class HangingOutbox extends InMemoryOutbox {
  answer: (deliveries: OutboxDelivery[]) => void = () => {};
  pending = 2;
  override claim(): Promise<OutboxDelivery[]> {
    return new Promise((resolve) => this.answer = resolve);
  }
  override backlog() {
    return Promise.resolve([{
      handler: "c.reaction",
      pending: this.pending,
      retrying: 0,
      dead: 0,
    }]);
  }
}

Deno.test("EventRelay.stallCheck fails while the relay makes no progress for stalledAfter with deliveries pending, logging RELAY_STALLED once and RELAY_RECOVERED after", async () => {
  const clock = new TestClock();
  const outbox = new HangingOutbox();
  const lines: LogRecord[] = [];
  const relay = new EventRelay({
    outbox,
    handlers: new Map([[
      "c.reaction",
      () => ({ handle: () => Promise.resolve() }) as unknown as EventHandler,
    ]]),
    transactions: new InMemoryTransactions(),
    clock,
    errorReporter: { report: () => {} },
  });
  const check = relay.stallCheck({
    stalledAfter: "30s",
    logger: { log: (record) => void lines.push(record) },
  });
  const signal = new AbortController().signal;
  await check(signal);
  relay.start();
  try {
    // The claim hangs (a statement whose answer never comes).
    clock.advance(30_000);
    await check(signal);
    clock.advance(1);
    await assert.rejects(check(signal), /stalled/);
    await assert.rejects(check(signal), /stalled/);
    assert.deepEqual(lines.map((line) => [line.component, line.code]), [
      ["outbox.relay", "RELAY_STALLED"],
    ]);
    outbox.answer([]);
    await turns();
    await check(signal);
    assert.deepEqual(lines.map((line) => line.code), ["RELAY_STALLED", "RELAY_RECOVERED"]);
    // Nothing pending: a relay that has had nothing to do for long is not stalled.
    outbox.pending = 0;
    clock.advance(60_000);
    await check(signal);
  } finally {
    outbox.answer([]);
    const stopped = relay.stop();
    clock.advance(60_000);
    await stopped;
  }
});
