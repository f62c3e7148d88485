import assert from "node:assert/strict";
import { InMemoryTransactions } from "../mod.ts";

Deno.test("An in-memory unit runs its commit callbacks in order after the work, before it answers", async () => {
  const transactions = new InMemoryTransactions();
  const order: string[] = [];
  const answer = await transactions.run(async (unit) => {
    unit.whenCommitted(() => void order.push("first"));
    await Promise.resolve();
    unit.whenCommitted(() => void order.push("second"));
    order.push("work");
    return "done";
  });
  assert.equal(answer, "done");
  assert.deepEqual(order, ["work", "first", "second"]);
});

Deno.test("An in-memory unit that fails, at once or later, drops its callbacks and releases its locks", async () => {
  const transactions = new InMemoryTransactions();
  const committed: string[] = [];
  await assert.rejects(
    transactions.run(async (unit) => {
      await unit.lock("calendar:1");
      unit.whenCommitted(() => void committed.push("later"));
      throw new Error("rejected");
    }),
    /rejected/,
  );
  await assert.rejects(
    transactions.run((unit) => {
      void unit.lock("calendar:1");
      unit.whenCommitted(() => void committed.push("at once"));
      throw new Error("thrown");
    }),
    /thrown/,
  );
  // Both released the lock: a third unit takes it.
  assert.equal(
    await transactions.run(async (unit) => (await unit.lock("calendar:1"), "taken")),
    "taken",
  );
  assert.deepEqual(committed, []);
  // A bad callback is a rejection, as any error of the work.
  await assert.rejects(
    transactions.run((unit) => (unit.whenCommitted(42 as never), Promise.resolve())),
    /whenCommitted takes a function, got number/,
  );
});
