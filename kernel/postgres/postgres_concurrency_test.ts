import assert from "node:assert/strict";
import type postgres from "postgres";
import { pgTest } from "../../test_support/services.ts";
import {
  type Actor,
  Command,
  composeApplication,
  ConceptError,
  defineModule,
  expectSaved,
  Handles,
  type Injectable,
  isRefusal,
  lockFor,
  Query,
  requireTenant,
  RetryOnConflict,
  token,
  userActor,
} from "../mod.ts";
import { currentSql, PostgresTransactions } from "../postgres.ts";

const Db = token<postgres.Sql>("Db");
const ann = userActor("ann", { tenants: ["t1"] });

class Increment extends Command<void> {
  constructor(actor: Actor, readonly id: string) {
    super(actor);
  }
}
class RetriedIncrement extends Increment {}
RetryOnConflict({ retries: 50 })(RetriedIncrement);
class LockedIncrement extends Command<void> {
  constructor(actor: Actor, readonly id: string) {
    super(actor);
  }
}
class Store extends Command<void> {
  constructor(
    readonly statement: (sql: postgres.TransactionSql | postgres.Sql) => Promise<unknown>,
  ) {
    super(ann);
  }
}
class Read extends Query<unknown> {
  constructor(readonly statement: (sql: postgres.Sql) => Promise<unknown>) {
    super(ann);
  }
}

function application(sql: postgres.Sql) {
  async function increment(db: postgres.Sql, id: string): Promise<void> {
    const [row] = await currentSql(db)`
      select n, version from counters where id = ${id} and tenant_id = ${requireTenant()}`;
    if (row === undefined) throw ConceptError.notFound("COUNTER_NOT_FOUND", `No counter ${id}`);
    const result = await currentSql(db)`
      update counters set n = ${row.n + 1}, version = version + 1
      where id = ${id} and tenant_id = ${requireTenant()} and version = ${row.version}`;
    expectSaved(result.count, { type: "counter", id, version: row.version });
  }
  @Handles(Increment)
  class IncrementHandler {
    constructor(private readonly db: postgres.Sql) {}
    handle(command: Increment): Promise<void> {
      return increment(this.db, command.id);
    }
  }
  @Handles(RetriedIncrement)
  class RetriedIncrementHandler {
    constructor(private readonly db: postgres.Sql) {}
    handle(command: RetriedIncrement): Promise<void> {
      return increment(this.db, command.id);
    }
  }
  @Handles(LockedIncrement)
  class LockedIncrementHandler {
    constructor(private readonly db: postgres.Sql) {}
    async handle(command: LockedIncrement): Promise<void> {
      await lockFor(`counter:${command.id}`);
      const [row] = await currentSql(this.db)`select n from counters where id = ${command.id}`;
      await currentSql(this.db)`update counters set n = ${row!.n + 1} where id = ${command.id}`;
    }
  }
  @Handles(Store)
  class StoreHandler {
    constructor(private readonly db: postgres.Sql) {}
    async handle(command: Store): Promise<void> {
      await command.statement(currentSql(this.db));
    }
  }
  @Handles(Read)
  class ReadHandler {
    constructor(private readonly db: postgres.Sql) {}
    handle(query: Read): Promise<unknown> {
      return query.statement(this.db);
    }
  }
  const handlers = [
    IncrementHandler,
    RetriedIncrementHandler,
    LockedIncrementHandler,
    StoreHandler,
    ReadHandler,
  ];
  return composeApplication({
    modules: [defineModule("counters", {
      declarations: handlers,
      dependencies: new Map<abstract new (...args: never[]) => unknown, readonly Injectable[]>(
        handlers.map((h) => [h, [Db]]),
      ),
    })],
    providers: [{ provide: Db, provider: { useValue: sql } }],
    transactions: new PostgresTransactions(sql),
  });
}

async function counters(sql: postgres.Sql): Promise<void> {
  await sql`create table counters (
    id text primary key, tenant_id text not null, n int not null, version int not null)`;
  await sql`insert into counters values ('c1', 't1', 0, 1)`;
}

async function count(sql: postgres.Sql): Promise<number> {
  return (await sql`select n from counters where id = 'c1'`)[0]!.n;
}

pgTest(
  "Postgres: racing versioned saves: one per version wins, the others are CONCURRENT_UPDATE",
  async ({ sql }) => {
    await counters(sql);
    const app = application(sql);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => app.commands.execute(new Increment(ann, "c1"))),
    );
    const done = results.filter((r) => r.status === "fulfilled").length;
    const conflicts =
      results.filter((r) => r.status === "rejected" && isRefusal(r.reason, "CONCURRENT_UPDATE"))
        .length;
    assert.equal(done + conflicts, 8);
    assert.ok(done >= 1);
    // No acknowledged increment was undone, and no refused one was kept.
    assert.equal(await count(sql), done);
  },
);

pgTest("Postgres: @RetryOnConflict applies every racing command exactly once", async ({ sql }) => {
  await counters(sql);
  const app = application(sql);
  await Promise.all(
    Array.from({ length: 8 }, () => app.commands.execute(new RetriedIncrement(ann, "c1"))),
  );
  assert.equal(await count(sql), 8);
});

pgTest(
  "Postgres: a tenant-filtered repository neither reads nor writes another tenant's row",
  async ({ sql }) => {
    await counters(sql);
    const app = application(sql);
    const ben = userActor("ben", { tenants: ["t2"] });
    // Ben's work runs for t2: the row of t1 is not found, so nothing is written.
    await assert.rejects(
      () => app.commands.execute(new Increment(ben, "c1")),
      (error) => isRefusal(error, "COUNTER_NOT_FOUND"),
    );
    // A caller of two tenants who names none: TENANT_REQUIRED before any statement.
    const both = userActor("bo", { tenants: ["t1", "t2"] });
    await assert.rejects(
      () => app.commands.execute(new Increment(both, "c1")),
      (error) => isRefusal(error, "TENANT_REQUIRED"),
    );
    assert.equal(await count(sql), 0);
  },
);

pgTest(
  "Postgres: lockFor serialises units across connections (an advisory transaction lock)",
  async ({ sql }) => {
    await counters(sql);
    const app = application(sql);
    await Promise.all(
      Array.from({ length: 8 }, () => app.commands.execute(new LockedIncrement(ann, "c1"))),
    );
    assert.equal(await count(sql), 8);
  },
);

pgTest(
  "Postgres: input the database cannot hold is INVALID_INPUT (422), never a bare error",
  async ({ sql }) => {
    await sql`create table notes (text text not null, at timestamptz)`;
    await sql`create index on notes (text)`;
    const app = application(sql);
    const invalid = (error: unknown) => isRefusal(error, "INVALID_INPUT");
    // A NUL character in text, in a command and in a query.
    await assert.rejects(
      () =>
        app.commands.execute(new Store((s) => s`insert into notes (text) values (${"a\u0000b"})`)),
      invalid,
    );
    await assert.rejects(
      () => app.queries.execute(new Read((s) => s`select ${"a\u0000"}::text`)),
      invalid,
    );
    // A date PostgreSQL cannot hold, and a value of the wrong form.
    await assert.rejects(
      () =>
        app.commands.execute(
          new Store((s) =>
            s`insert into notes values ('x', ${new Date("+010000-01-01T00:00:00Z")})`
          ),
        ),
      invalid,
    );
    await assert.rejects(
      () =>
        app.commands.execute(
          new Store((s) =>
            s`insert into notes values ('x', ${"0000-01-01T00:00:00Z"}::timestamptz)`
          ),
        ),
      invalid,
    );
    await assert.rejects(
      () => app.queries.execute(new Read((s) => s`select ${"abc"}::int`)),
      invalid,
    );
    // A key too large for its index.
    const huge = Array.from(
      { length: 300_000 },
      (_, i) => String.fromCharCode(33 + (i * 7919) % 90),
    ).join("");
    await assert.rejects(
      () => app.commands.execute(new Store((s) => s`insert into notes (text) values (${huge})`)),
      invalid,
    );
    assert.equal((await sql`select count(*)::int as n from notes`)[0]!.n, 0);
  },
);

pgTest(
  "Postgres: a serialization failure or a deadlock is a CONCURRENT_UPDATE conflict",
  async ({ sql }) => {
    const app = application(sql);
    for (const state of ["40001", "40P01"]) {
      await assert.rejects(
        () =>
          app.commands.execute(
            new Store((s) =>
              s.unsafe(`do $$ begin raise exception 'x' using errcode = '${state}'; end $$`)
            ),
          ),
        (error) => isRefusal(error, "CONCURRENT_UPDATE"),
      );
    }
  },
);
