/**
 * The kernel on a database out of reach: units of work, commands and queries fail at once with
 * SERVICE_UNAVAILABLE instead of hanging or failing with the driver's error; a unit that waits
 * for a connection past the acquire time-out never runs; a statement past the statement time-out
 * is cancelled. The fault tests with a server that is restarted under load are in
 * `postgres_fault_test.ts`.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import {
  checkReadiness,
  Command,
  composeApplication,
  defineModule,
  Handles,
  type Injectable,
  isRefusal,
  Query,
  ServiceUnavailableError,
  systemActor,
  token,
} from "../mod.ts";
import {
  currentSql,
  postgresClientOptions,
  postgresHealthCheck,
  PostgresTransactions,
} from "../postgres.ts";

const Db = token<postgres.Sql>("Db");

class Touch extends Command<void> {
  constructor() {
    super(systemActor);
  }
}

class Count extends Query<number> {
  constructor() {
    super(systemActor);
  }
}

function application(sql: postgres.Sql) {
  @Handles(Touch)
  class TouchHandler {
    constructor(private readonly sql: postgres.Sql) {}
    async handle(): Promise<void> {
      await currentSql(this.sql)`select 1`;
    }
  }
  @Handles(Count)
  class CountHandler {
    constructor(private readonly sql: postgres.Sql) {}
    async handle(): Promise<number> {
      const [row] = await this.sql`select 1 as n`;
      return row!.n as number;
    }
  }
  return composeApplication({
    modules: [
      defineModule("outage", {
        declarations: [TouchHandler, CountHandler],
        dependencies: new Map<abstract new (...args: never[]) => unknown, readonly Injectable[]>([
          [TouchHandler, [Db]],
          [CountHandler, [Db]],
        ]),
        providers: [{ provide: Db, provider: { useValue: sql } }],
      }),
    ],
    transactions: new PostgresTransactions(sql, { retryAfter: "3s" }),
  });
}

/** A loopback port nothing listens on: connections are refused at once. */
function refusedUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

Deno.test({
  name:
    "On a database that refuses connections, a unit of work, a command and a query fail at once with SERVICE_UNAVAILABLE and its Retry-After",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sql = postgres(refusedUrl(), { ...postgresClientOptions(), onnotice: () => {} });
    try {
      const started = performance.now();
      let ran = false;
      const error = await new PostgresTransactions(sql).run(() => {
        ran = true;
        return Promise.resolve();
      }).catch((e) => e);
      assert.ok(error instanceof ServiceUnavailableError, String(error));
      assert.equal(error.retryAfterSeconds, 5);
      assert.deepEqual(error.details, {
        service: "database",
        retryAfterSeconds: 5,
        reason: "connection refused",
      });
      assert.equal(ran, false);
      const app = application(sql);
      const answers = [
        await app.commands.execute(new Touch()).catch((e) => e),
        await app.queries.execute(new Count()).catch((e) => e),
      ];
      for (const [i, failed] of answers.entries()) {
        assert.ok(isRefusal(failed, "SERVICE_UNAVAILABLE"), `${i}: ${failed}`);
        assert.equal((failed as ServiceUnavailableError).retryAfterSeconds, 3);
      }
      const report = await checkReadiness({ database: postgresHealthCheck(sql) });
      assert.deepEqual(report.checks.database, { status: "down", reason: "failed" });
      assert.ok(performance.now() - started < 4_000, "no wait for a connection that cannot come");
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
});

function pgTest(name: string, fn: (url: string, schema: string) => Promise<void>): void {
  Deno.test({
    name,
    ignore: ignoreWithout("DATABASE_URL"),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withTestDatabase(({ url, schema }) => fn(url, schema), { max: 1 }),
  });
}

pgTest(
  "A unit of work that waits past the acquire time-out fails with SERVICE_UNAVAILABLE, and its work never runs",
  async (url, schema) => {
    const sql = postgres(url, {
      ...postgresClientOptions({
        max: 1,
        acquireTimeout: "200ms",
        connection: { search_path: schema },
      }),
      onnotice: () => {},
    });
    try {
      await sql`create table touched (n int)`;
      const transactions = new PostgresTransactions(sql);
      let release!: () => void;
      let holds!: () => void;
      const held = new Promise<void>((resolve) => holds = resolve);
      const holding = transactions.run(async (unit) => {
        await (unit.transaction as postgres.TransactionSql)`insert into touched values (1)`;
        holds();
        await new Promise<void>((resolve) => release = resolve);
      });
      await held;
      let ran = false;
      const waiting = await transactions.run(async (unit) => {
        ran = true;
        await (unit.transaction as postgres.TransactionSql)`insert into touched values (2)`;
      }).catch((e) => e);
      assert.ok(isRefusal(waiting, "SERVICE_UNAVAILABLE"), String(waiting));
      assert.equal(waiting.details.reason, "no connection free in time");
      release();
      await holding;
      assert.equal(ran, false);
      const rows = await sql`select n from touched order by n`;
      assert.deepEqual(rows.map((row) => row.n), [1], "the refused unit never ran, not even late");
      const [row] = await sql`select 3 as n`;
      assert.equal(row?.n, 3, "the pool serves again");
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

pgTest(
  "A statement past the statement time-out is cancelled and its unit fails with SERVICE_UNAVAILABLE",
  async (url, schema) => {
    const sql = postgres(url, {
      ...postgresClientOptions({
        max: 1,
        statementTimeout: "100ms",
        connection: { search_path: schema },
      }),
      onnotice: () => {},
    });
    try {
      const error = await new PostgresTransactions(sql).run(async (unit) => {
        await (unit.transaction as postgres.TransactionSql)`select pg_sleep(5)`;
      }).catch((e) => e);
      assert.ok(isRefusal(error, "SERVICE_UNAVAILABLE"), String(error));
      assert.equal(error.details.reason, "statement time-out");
      const report = await checkReadiness({ database: postgresHealthCheck(sql) });
      assert.equal(report.status, "ready");
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);
