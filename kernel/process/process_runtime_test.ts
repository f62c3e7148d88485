import assert from "node:assert/strict";
import { z } from "zod";
import {
  Command,
  CommandBus,
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  type ErrorReporter,
  eventsPlugin,
  type ExecutionContext,
  Handles,
  InMemoryOutbox,
  InMemoryTransactions,
  type IntegrationEvent,
  type IntegrationEventDefinition,
  runInScope,
  systemActor,
} from "../mod.ts";
import { currentUnitOfWork } from "../internal.ts";
import {
  InMemoryProcessStore,
  onEvent,
  type ProcessContext,
  ProcessDeadlines,
  ProcessManager,
  ProcessStore,
  type ScheduledDeadline,
} from "../process.ts";
import { TestClock } from "../testing.ts";

const Opened = defineIntegrationEvent({
  type: "billing.account.opened",
  version: 1,
  payload: z.object({ accountId: z.string() }),
});
const Charged = defineIntegrationEvent({
  type: "billing.account.charged",
  version: 1,
  payload: z.object({ accountId: z.string(), amount: z.number() }),
});
const Closed = defineIntegrationEvent({
  type: "billing.account.closed",
  version: 1,
  payload: z.object({ accountId: z.string() }),
});
const State = z.object({ total: z.number().max(100) });
type State = z.infer<typeof State>;

class RecordCharge extends Command<void> {
  constructor(readonly amount: number) {
    super(systemActor);
  }
}

interface World {
  seen: { unit: string | undefined; execution: ExecutionContext }[];
  committed: number[];
  throwAfterCommand: boolean;
}

function build(world: World) {
  @Handles(RecordCharge)
  class RecordChargeHandler {
    handle(command: RecordCharge, context: { execution: ExecutionContext }): Promise<void> {
      world.seen.push({ unit: currentUnitOfWork()?.id, execution: context.execution });
      currentUnitOfWork()!.whenCommitted(() => void world.committed.push(command.amount));
      return Promise.resolve();
    }
  }

  @ProcessManager({
    name: "billing.account",
    state: State,
    startsOn: [onEvent(Opened, { key: (p) => p.accountId, transition: "opened" })],
    handles: [
      onEvent(Charged, { key: (p) => p.accountId, transition: "charged" }),
      onEvent(Closed, { key: (p) => p.accountId, transition: "closed", ifMissing: "ignore" }),
    ],
    deadlines: { statement: "statement" },
  })
  class AccountProcess {
    constructor(private readonly commands: CommandBus) {}
    opened(_event: IntegrationEvent<{ accountId: string }>): Promise<State> {
      return Promise.resolve({ total: 0 });
    }
    async charged(
      state: State,
      event: IntegrationEvent<{ accountId: string; amount: number }>,
      process: ProcessContext<"statement">,
    ): Promise<State> {
      world.seen.push({ unit: currentUnitOfWork()?.id, execution: process.execution });
      await this.commands.execute(new RecordCharge(event.payload.amount));
      if (world.throwAfterCommand) throw new Error("the transition failed after its command");
      if (event.payload.amount < 0) {
        (process.requestDeadline as (n: string, at: Date) => void)("x", process.now);
      }
      return { total: state.total + event.payload.amount };
    }
    closed(_state: State): Promise<State> {
      return Promise.resolve({ total: 0 });
    }
    statement(state: State): Promise<State> {
      return Promise.resolve(state);
    }
  }

  const reported: unknown[] = [];
  const errorReporter: ErrorReporter = { report: (error) => void reported.push(error) };
  const store = new InMemoryProcessStore();
  const deadlines: ProcessDeadlines = {
    schedule: (_deadline: ScheduledDeadline) => Promise.resolve("job-1"),
    cancel: () => Promise.resolve(),
  };
  const app = composeApplication({
    modules: [
      defineModule("billing", {
        declarations: [RecordChargeHandler, AccountProcess],
        dependencies: new Map([[AccountProcess, [CommandBus]]]),
      }),
    ],
    clock: new TestClock("2026-05-01T08:00:00Z"),
    errorReporter,
    providers: [
      { provide: ProcessStore, provider: { useValue: store } },
      { provide: ProcessDeadlines, provider: { useValue: deadlines } },
    ],
    plugins: {
      events: eventsPlugin({ outbox: new InMemoryOutbox(), start: false, metrics: false }),
    },
  });
  const transactions = new InMemoryTransactions();
  const publish = <P>(event: IntegrationEventDefinition<P>, payload: P): Promise<void> => {
    const execution: ExecutionContext = {
      origin: "test",
      actor: systemActor,
      correlationId: "c1",
      tenantId: "t1",
    };
    return transactions.run((unitOfWork) =>
      runInScope({ execution, unitOfWork }, async () => {
        await app.events.publisher.publish(event, payload);
      })
    );
  };
  const total = () =>
    Promise.resolve((store.instances()[0]?.state as { total: number } | undefined)?.total);
  return { app, publish, reported, store, total };
}

function newWorld(): World {
  return { seen: [], committed: [], throwAfterCommand: false };
}

Deno.test("a transition runs as the system actor with the event's tenant; its commands join its unit", async () => {
  const world = newWorld();
  const { app, publish, total } = build(world);
  await publish(Opened, { accountId: "acc-1" });
  await publish(Charged, { accountId: "acc-1", amount: 30 });
  await app.events.relay.deliverDue();
  assert.equal(world.seen.length, 2);
  const [transition, command] = world.seen;
  assert.equal(transition!.execution.actor.kind, "system");
  assert.equal(transition!.execution.tenantId, "t1");
  assert.equal(command!.unit, transition!.unit, "the command joined the transition's unit");
  assert.equal(command!.execution.tenantId, "t1");
  assert.deepEqual(world.committed, [30]);
  assert.equal(await total(), 30);
});

Deno.test("a transition that fails after its command leaves neither: the delivery is retried", async () => {
  const world = newWorld();
  const { app, publish, reported, total } = build(world);
  await publish(Opened, { accountId: "acc-1" });
  await app.events.relay.deliverDue();
  world.throwAfterCommand = true;
  await publish(Charged, { accountId: "acc-1", amount: 30 });
  assert.equal(await app.events.relay.deliverDue(), 0);
  assert.match(String(reported[0]), /failed after its command/);
  assert.deepEqual(world.committed, [], "the command's effect rolled back with the transition");
  assert.equal(await total(), 0);
});

Deno.test("a state a transition answers that does not fit the schema is refused (PROCESS_STATE_INVALID)", async () => {
  const world = newWorld();
  const { app, publish, reported, total } = build(world);
  await publish(Opened, { accountId: "acc-1" });
  await publish(Charged, { accountId: "acc-1", amount: 500 });
  await app.events.relay.deliverDue();
  assert.equal((reported[0] as { code?: string }).code, "PROCESS_STATE_INVALID");
  assert.deepEqual(world.committed, []);
  assert.equal(await total(), 0);
});

Deno.test("a transition requesting an undeclared deadline fails, naming it", async () => {
  const world = newWorld();
  const { app, publish, reported } = build(world);
  await publish(Opened, { accountId: "acc-1" });
  await publish(Charged, { accountId: "acc-1", amount: -1 });
  await app.events.relay.deliverDue();
  assert.match(String(reported[0]), /cannot request the deadline 'x': declare it in deadlines/);
});

Deno.test("an event declared ifMissing 'ignore' is dropped without its instance", async () => {
  const world = newWorld();
  const { app, publish, reported, store } = build(world);
  await publish(Closed, { accountId: "acc-1" });
  assert.equal(await app.events.relay.deliverDue(), 1);
  assert.deepEqual(reported, []);
  assert.deepEqual(store.instances(), []);
  assert.deepEqual(
    await store.messageList({ process: "billing.account", tenantId: "t1", key: "acc-1" }),
    [],
  );
});
