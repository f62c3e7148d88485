import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import {
  type Actor,
  Command,
  composeApplication,
  defineModule,
  type HandlerContext,
  Handles,
  InMemoryAggregates,
  isRefusal,
  lockFor,
  Query,
  RetryOnConflict,
  runInScope,
  systemActor,
  userActor,
} from "../mod.ts";

const ann = userActor("ann", { tenants: ["t1"] });
const ben = userActor("ben", { tenants: ["t2"] });

interface Counter {
  readonly id: string;
  readonly n: number;
}

/** Two turns of the event loop: long enough for every racing command to load first. */
const yieldTurns = () => turns();

function counterApp(options: { retry: boolean }) {
  const rows = new InMemoryAggregates<Counter>("counter");
  const changes: number[] = [];

  class Open extends Command<void> {
    constructor(actor: Actor, readonly id: string) {
      super(actor);
    }
  }
  class Increment extends Command<number> {
    constructor(actor: Actor, readonly id: string) {
      super(actor);
    }
  }
  if (options.retry) RetryOnConflict({ retries: 20 })(Increment);
  class Read extends Query<number | undefined> {
    constructor(actor: Actor, readonly id: string) {
      super(actor);
    }
  }

  @Handles(Open)
  class OpenHandler {
    handle(command: Open): Promise<void> {
      rows.insert({ id: command.id, n: 0 });
      return Promise.resolve();
    }
  }
  @Handles(Increment)
  class IncrementHandler {
    async handle(command: Increment, context: HandlerContext): Promise<number> {
      const loaded = rows.find(command.id);
      if (loaded === undefined) throw new Error(`no counter ${command.id}`);
      await yieldTurns();
      const n = loaded.state.n + 1;
      rows.update({ id: command.id, n }, loaded.version);
      // One event per state change: published only by the unit that committed it.
      context.unitOfWork!.whenCommitted(() => void changes.push(n));
      return n;
    }
  }
  @Handles(Read)
  class ReadHandler {
    handle(query: Read): Promise<number | undefined> {
      return Promise.resolve(rows.find(query.id)?.state.n);
    }
  }
  const app = composeApplication({
    modules: [defineModule("counters", {
      declarations: [OpenHandler, IncrementHandler, ReadHandler],
    })],
  });
  return { app, changes, Open, Increment, Read };
}

Deno.test("InMemoryAggregates: a stale save is a CONCURRENT_UPDATE and changes nothing", async () => {
  const { app, changes, Open, Increment, Read } = counterApp({ retry: false });
  await app.commands.execute(new Open(ann, "c1"));
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, () => app.commands.execute(new Increment(ann, "c1"))),
  );
  const done = results.filter((r) => r.status === "fulfilled");
  const conflicts = results.filter((r) =>
    r.status === "rejected" && isRefusal(r.reason, "CONCURRENT_UPDATE")
  );
  assert.equal(done.length, 1);
  assert.equal(conflicts.length, 9);
  assert.equal(await app.queries.execute(new Read(ann, "c1")), 1);
  assert.deepEqual(changes, [1]);
});

Deno.test("@RetryOnConflict: racing commands are sent again until each applies once", async () => {
  const { app, changes, Open, Increment, Read } = counterApp({ retry: true });
  await app.commands.execute(new Open(ann, "c1"));
  const results = await Promise.all(
    Array.from({ length: 10 }, () => app.commands.execute(new Increment(ann, "c1"))),
  );
  assert.deepEqual([...results].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(await app.queries.execute(new Read(ann, "c1")), 10);
  assert.deepEqual(changes, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

Deno.test("@RetryOnConflict gives up after its retries: the conflict reaches the caller", async () => {
  let attempts = 0;
  class Stubborn extends Command<void> {}
  RetryOnConflict({ retries: 2 })(Stubborn);
  const rows = new InMemoryAggregates<Counter>("counter");
  @Handles(Stubborn)
  class StubbornHandler {
    handle(): Promise<void> {
      attempts++;
      rows.update({ id: "missing", n: 1 }, 1);
      return Promise.resolve();
    }
  }
  const app = composeApplication({
    modules: [defineModule("s", { declarations: [StubbornHandler] })],
  });
  await assert.rejects(
    () => app.commands.execute(new Stubborn(ann)),
    (error) => isRefusal(error, "CONCURRENT_UPDATE"),
  );
  assert.equal(attempts, 3);
  assert.throws(() => RetryOnConflict({ retries: 0 }), /whole number from 1 to 100, got 0/);
});

Deno.test("@RetryOnConflict: a command declared in its module composes (it is not injectable)", async () => {
  @RetryOnConflict()
  class Touch extends Command<string> {
    constructor(actor: Actor, readonly what: string) {
      super(actor);
    }
  }
  @Handles(Touch)
  class TouchHandler {
    handle(): Promise<string> {
      return Promise.resolve("touched");
    }
  }
  const app = composeApplication({
    modules: [defineModule("s", {
      declarations: [Touch, TouchHandler],
      // As derived: the handler's dependencies, none for the message.
      dependencies: new Map([[TouchHandler, []]]),
    })],
  });
  assert.equal(await app.commands.execute(new Touch(ann, "x")), "touched");
});

Deno.test("InMemoryAggregates: rows carry the writer's tenant; other tenants neither see nor save them", async () => {
  const { app, Open, Increment, Read } = counterApp({ retry: false });
  await app.commands.execute(new Open(ann, "c1"));
  assert.equal(await app.queries.execute(new Read(ben, "c1")), undefined);
  await assert.rejects(() => app.commands.execute(new Increment(ben, "c1")), /no counter c1/);
  // A caller of no tenant cannot write a tenant-owned row.
  await assert.rejects(
    () => app.commands.execute(new Open(userActor("nobody"), "c2")),
    (error) => isRefusal(error, "TENANT_REQUIRED"),
  );
  // The same id in another tenant is that tenant's own row: kept apart, neither overwritten.
  await app.commands.execute(new Open(ben, "c1"));
  assert.equal(await app.commands.execute(new Increment(ben, "c1")), 1);
  assert.equal(await app.queries.execute(new Read(ann, "c1")), 0);
  assert.equal(await app.queries.execute(new Read(ben, "c1")), 1);
  // The same id again in one tenant is refused, and its row stands.
  await assert.rejects(
    () => app.commands.execute(new Open(ann, "c1")),
    (error) => isRefusal(error, "CONCURRENT_UPDATE"),
  );
  assert.equal(await app.queries.execute(new Read(ann, "c1")), 0);
});

Deno.test("InMemoryAggregates: a duplicate in one tenant throws the error given; work reaching two tenants finds its own tenant's row first", () => {
  const rows = new InMemoryAggregates<Counter>("counter", {
    exists: (id) => new Error(`counter ${id} exists`),
  });
  const inTenant = (tenantId: string, elevated: string[] = []) => ({
    origin: "test",
    correlationId: "c",
    tenantId,
    elevatedTenants: elevated,
    actor: userActor("ann", { tenants: [tenantId] }),
  });
  runInScope({ execution: inTenant("t2") }, () => rows.insert({ id: "c1", n: 2 }));
  runInScope({ execution: inTenant("t1") }, () => rows.insert({ id: "c1", n: 1 }));
  assert.throws(
    () => runInScope({ execution: inTenant("t1") }, () => rows.insert({ id: "c1", n: 9 })),
    /counter c1 exists/,
  );
  // Reaching both, t2's work finds (and updates) t2's row; the system's work the first tenant's.
  runInScope({ execution: inTenant("t2", ["t1"]) }, () => {
    assert.equal(rows.find("c1")?.state.n, 2);
    assert.equal(rows.update({ id: "c1", n: 3 }, 1), 2);
  });
  const system = { origin: "test", correlationId: "c", actor: systemActor };
  runInScope({ execution: system }, () => {
    assert.equal(rows.find("c1")?.state.n, 1);
    assert.equal(rows.list().length, 2);
    rows.remove("c1", 1);
    assert.equal(rows.find("c1")?.state.n, 3);
  });
  runInScope({ execution: inTenant("t1") }, () => assert.equal(rows.find("c1"), undefined));
});

Deno.test("lockFor serialises units of work that take the same name, in memory", async () => {
  let value = 0;
  const seen: number[] = [];
  class Bump extends Command<void> {
    constructor(actor: Actor, readonly key: string) {
      super(actor);
    }
  }
  @Handles(Bump)
  class BumpHandler {
    async handle(command: Bump): Promise<void> {
      await lockFor(command.key);
      await lockFor(command.key); // taking a lock the unit holds goes on at once
      const read = value;
      await yieldTurns();
      value = read + 1;
      seen.push(value);
    }
  }
  class Fails extends Command<void> {}
  @Handles(Fails)
  class FailsHandler {
    async handle(): Promise<void> {
      await lockFor("k");
      throw new Error("refused");
    }
  }
  const app = composeApplication({
    modules: [defineModule("s", { declarations: [BumpHandler, FailsHandler] })],
  });
  // A unit that fails releases its lock too.
  await assert.rejects(() => app.commands.execute(new Fails(ann)), /refused/);
  await Promise.all(Array.from({ length: 8 }, () => app.commands.execute(new Bump(ann, "k"))));
  assert.equal(value, 8);
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8]);
  await assert.rejects(() => lockFor("k"), /lockFor\('k'\) needs a unit of work/);
});
