import { InMemoryOutbox } from "./in_memory_outbox.ts";
import { InMemoryTransactions } from "../unit_of_work/in_memory_transactions.ts";
import { outboxBacklogCase } from "../testdata/outbox_backlog_case.ts";

Deno.test("InMemoryOutbox: the backlog counts each handler's pending, retrying and dead deliveries, of the tenants asked", async () => {
  await outboxBacklogCase(new InMemoryOutbox(), new InMemoryTransactions());
});
