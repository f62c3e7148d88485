import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { z } from "zod";
import {
  defineIntegrationEvent,
  type ExecutionContext,
  InMemoryProcessedEvents,
  InMemoryTransactions,
  type IntegrationEvent,
  processOnce,
  runInScope,
  systemActor,
} from "../mod.ts";
import { currentUnitOfWork, type UnitOfWork } from "../internal.ts";

const PaymentReceived = defineIntegrationEvent({
  type: "billing.payment.received",
  version: 1,
  payload: z.object({ invoiceId: z.string() }),
});

const handler = "notifications.billing-payment-received";

/** Runs `work` as the relay runs a delivery: in a unit of work of its own, with the event's scope. */
function deliver<T>(
  transactions: InMemoryTransactions,
  event: IntegrationEvent,
  work: (unit: UnitOfWork) => Promise<T>,
): Promise<T> {
  const execution: ExecutionContext = {
    origin: "event",
    actor: systemActor,
    correlationId: event.id,
    causationId: event.id,
  };
  return transactions.run((unitOfWork) =>
    runInScope({ execution, unitOfWork }, () => work(unitOfWork))
  );
}

/** Lets other promise callbacks run (no time passes). */
async function settle(): Promise<void> {
  await turns(10);
}

Deno.test("InMemoryProcessedEvents: a delivery that fails after marking leaves no mark, so the retry runs and its effect is kept", async () => {
  const processed = new InMemoryProcessedEvents();
  const transactions = new InMemoryTransactions();
  const event = await PaymentReceived.create({ invoiceId: "inv-1" });
  const receipts: string[] = [];
  let failuresLeft = 1;
  let ran = 0;
  const handle = (unit: UnitOfWork) =>
    processOnce(processed, handler, event, () => {
      ran++;
      // The effect is written in the delivery's unit of work: it exists once that unit commits.
      unit.whenCommitted(() => void receipts.push(event.id));
      if (failuresLeft-- > 0) return Promise.reject(new Error("mailer down"));
      return Promise.resolve();
    });

  await assert.rejects(() => deliver(transactions, event, handle), /mailer down/);
  assert.deepEqual(receipts, [], "the failed delivery rolled back with its effect");
  assert.equal(await deliver(transactions, event, handle), true, "the retry runs the work");
  assert.equal(ran, 2);
  assert.deepEqual(receipts, [event.id], "the retry's effect is kept");
  assert.equal(
    await deliver(transactions, event, handle),
    false,
    "a redelivery after it is skipped",
  );
  assert.equal(ran, 2);
  assert.deepEqual(receipts, [event.id]);
});

Deno.test("InMemoryProcessedEvents: a handler that throws after processOnce returned leaves no mark either", async () => {
  const processed = new InMemoryProcessedEvents();
  const transactions = new InMemoryTransactions();
  const event = await PaymentReceived.create({ invoiceId: "inv-2" });
  const marks: boolean[] = [];
  await assert.rejects(() =>
    deliver(transactions, event, async () => {
      marks.push(await processed.markProcessed(handler, event.id, currentUnit()));
      throw new Error("the outbox could not record the delivery");
    }), /could not record/);
  await deliver(transactions, event, async () => {
    marks.push(await processed.markProcessed(handler, event.id, currentUnit()));
    marks.push(await processed.markProcessed(handler, event.id, currentUnit()));
  });
  await deliver(transactions, event, async () => {
    marks.push(await processed.markProcessed(handler, event.id, currentUnit()));
  });
  assert.deepEqual(marks, [true, true, false, false], "marked, marked again, this unit's, kept");
  // Another handler's mark of the same event is its own.
  assert.equal(
    await deliver(
      transactions,
      event,
      (unit) => processed.markProcessed("other.handler", event.id, unit),
    ),
    true,
  );
});

Deno.test("InMemoryProcessedEvents: a unit marking a pair held by a unit in progress waits for it: false once it commits", async () => {
  const processed = new InMemoryProcessedEvents();
  const transactions = new InMemoryTransactions();
  const event = await PaymentReceived.create({ invoiceId: "inv-3" });
  const { first, second } = await racingDeliveries(processed, transactions, event, "commit");
  assert.deepEqual([first, second], [true, false]);
});

Deno.test("InMemoryProcessedEvents: a unit marking a pair held by a unit in progress waits for it: true once it rolls back", async () => {
  const processed = new InMemoryProcessedEvents();
  const transactions = new InMemoryTransactions();
  const event = await PaymentReceived.create({ invoiceId: "inv-4" });
  const { first, second } = await racingDeliveries(processed, transactions, event, "roll back");
  assert.deepEqual([first, second], [true, true]);
});

/**
 * Two deliveries of one event: the first marks and waits; the second marks meanwhile and must not
 * answer while the first is in progress; then the first commits or rolls back.
 */
async function racingDeliveries(
  processed: InMemoryProcessedEvents,
  transactions: InMemoryTransactions,
  event: IntegrationEvent,
  end: "commit" | "roll back",
): Promise<{ first: boolean; second: boolean }> {
  let finishFirst!: () => void;
  const firstMayEnd = new Promise<void>((resolve) => (finishFirst = resolve));
  let first: boolean | undefined;
  const firstDelivery = deliver(transactions, event, async (unit) => {
    first = await processed.markProcessed(handler, event.id, unit);
    await firstMayEnd;
    if (end === "roll back") throw new Error("rolled back");
  }).catch(() => {});
  await settle();
  assert.equal(first, true);
  let second: boolean | undefined;
  const secondDelivery = deliver(transactions, event, async (unit) => {
    second = await processed.markProcessed(handler, event.id, unit);
  });
  await settle();
  assert.equal(second, undefined, "no answer while the first delivery is in progress");
  finishFirst();
  await Promise.all([firstDelivery, secondDelivery]);
  return { first: first!, second: second! };
}

/** The delivery's unit of work, as a handler reads it from the work under way. */
function currentUnit(): UnitOfWork {
  const unit = currentUnitOfWork();
  if (unit === undefined) throw new Error("no unit of work");
  return unit;
}
