import assert from "node:assert/strict";
import type postgres from "postgres";
import { z } from "zod";
import {
  type Actor,
  Command,
  CommandBus,
  composeApplication,
  defineErrorCodes,
  defineModule,
  Handles,
  type IdempotencyStore,
  InMemoryIdempotencyStore,
  type TransactionManager,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import {
  currentSql,
  migrateKernel,
  PostgresIdempotencyStore,
  PostgresTransactions,
} from "@kit/kernel/postgres";
import { fileSchema, schemaTest } from "../../test_support/file_schema.ts";
import { until } from "../../test_support/until.ts";
import { Authenticated, Controller, httpPlugin, type HttpRequest, zodSchema } from "../mod.ts";
import { headerAuthenticator } from "../testdata/scheduling_app.ts";

const bookingErrors = defineErrorCodes("booking", {
  SLOT_TAKEN: { status: 409, description: "The slot is booked already" },
});

/** What the booking use case saw: every run, and a gate that holds a run until opened. */
interface World {
  runs: string[];
  gate?: Promise<void>;
  refuse?: boolean;
  sql?: postgres.Sql;
}

function bookingApp(
  world: World,
  options: {
    store?: IdempotencyStore;
    transactions?: TransactionManager;
    clock?: TestClock;
    required?: boolean;
  } = {},
) {
  class Book extends Command<{ id: string }> {
    constructor(actor: Actor, readonly slot: string) {
      super(actor);
    }
  }
  @Handles(Book)
  class BookHandler {
    async handle(command: Book): Promise<{ id: string }> {
      world.runs.push(command.slot);
      if (world.gate) await world.gate;
      if (world.sql) {
        await currentSql(world.sql)`insert into bookings (slot) values (${command.slot})`;
      }
      if (world.refuse) throw bookingErrors.SLOT_TAKEN.error("The slot is taken");
      return { id: `booking-${world.runs.length}` };
    }
  }
  @Controller({
    method: "POST",
    path: "/bookings",
    guards: [Authenticated],
    body: zodSchema(z.object({ slot: z.string().max(100) })),
    response: { status: 201, body: zodSchema(z.object({ id: z.string() })) },
    errors: [bookingErrors.SLOT_TAKEN],
    idempotent: options.required ? { required: true, keepFor: "1h" } : { keepFor: "1h" },
  })
  class BookController {
    constructor(private readonly commands: CommandBus) {}
    handle(request: HttpRequest<{ body: { slot: string } }>): Promise<{ id: string }> {
      return this.commands.execute(new Book(request.actor, request.body.slot));
    }
  }
  const app = composeApplication({
    modules: [defineModule("booking", {
      declarations: [BookHandler, BookController],
      dependencies: new Map<abstract new (...args: never[]) => unknown, readonly unknown[]>([
        [BookController, [CommandBus]],
      ]) as never,
    })],
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.transactions ? { transactions: options.transactions } : {}),
    plugins: {
      http: httpPlugin({
        authenticators: [headerAuthenticator],
        idempotency: { store: options.store ?? new InMemoryIdempotencyStore() },
      }),
    },
  });
  return app.http;
}

function book(slot: string, key?: string, user = "ann;patient;t1"): Request {
  return new Request("http://api.test/bookings", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-test-user": user,
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
    body: JSON.stringify({ slot }),
  });
}

async function answer(
  response: Response,
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  return {
    status: response.status,
    body: await response.json(),
    replayed: response.headers.get("idempotent-replayed") === "true",
  };
}

Deno.test("Idempotency-Key: a retry with the same key and body replays the first answer; the use case ran once", async () => {
  const world: World = { runs: [] };
  const http = bookingApp(world);
  const first = await answer(await http.fetch(book("09:00", "k-1")));
  assert.deepEqual(first, { status: 201, body: { id: "booking-1" }, replayed: false });
  const again = await answer(await http.fetch(book("09:00", "k-1")));
  assert.deepEqual(again, { status: 201, body: { id: "booking-1" }, replayed: true });
  assert.deepEqual(world.runs, ["09:00"]);
  // Without a key, every request runs.
  await http.fetch(book("09:00"));
  assert.deepEqual(world.runs, ["09:00", "09:00"]);
});

Deno.test("Idempotency-Key: the same key with another body is refused with 422 IDEMPOTENCY_KEY_REUSED", async () => {
  const world: World = { runs: [] };
  const http = bookingApp(world);
  await http.fetch(book("09:00", "k-1"));
  const other = await http.fetch(book("10:00", "k-1"));
  assert.equal(other.status, 422);
  assert.equal((await other.json()).code, "IDEMPOTENCY_KEY_REUSED");
  assert.deepEqual(world.runs, ["09:00"]);
});

Deno.test("Idempotency-Key: a retry while the first is in flight answers 409 IDEMPOTENCY_KEY_IN_USE, then replays", async () => {
  let open!: () => void;
  const world: World = { runs: [], gate: new Promise((resolve) => (open = resolve)) };
  const http = bookingApp(world);
  const first = http.fetch(book("09:00", "k-1"));
  await until(() => world.runs.length > 0, "the first request running");
  const second = await http.fetch(book("09:00", "k-1"));
  assert.equal(second.status, 409);
  assert.equal((await second.json()).code, "IDEMPOTENCY_KEY_IN_USE");
  open();
  assert.equal((await first).status, 201);
  const third = await answer(await http.fetch(book("09:00", "k-1")));
  assert.deepEqual(third, { status: 201, body: { id: "booking-1" }, replayed: true });
  assert.deepEqual(world.runs, ["09:00"]);
});

Deno.test("Idempotency-Key: a use case that fails keeps nothing; the retry runs it again", async () => {
  const world: World = { runs: [], refuse: true };
  const http = bookingApp(world);
  const refused = await http.fetch(book("09:00", "k-1"));
  assert.equal(refused.status, 409);
  assert.equal((await refused.json()).code, "SLOT_TAKEN");
  world.refuse = false;
  const retried = await answer(await http.fetch(book("09:00", "k-1")));
  assert.deepEqual(retried, { status: 201, body: { id: "booking-2" }, replayed: false });
});

Deno.test("Idempotency-Key: keys belong to one caller; another caller's same key runs its own request", async () => {
  const world: World = { runs: [] };
  const http = bookingApp(world);
  await http.fetch(book("09:00", "k-1", "ann;patient;t1"));
  const bob = await answer(await http.fetch(book("09:00", "k-1", "bob;patient;t1")));
  assert.deepEqual(bob, { status: 201, body: { id: "booking-2" }, replayed: false });
  // The same caller in another tenant too.
  const inT2 = await answer(await http.fetch(book("09:00", "k-1", "ann;patient;t2")));
  assert.equal(inT2.replayed, false);
});

Deno.test("Idempotency-Key: a kept answer expires after keepFor (the application's clock)", async () => {
  const clock = new TestClock(new Date("2026-06-01T08:00:00Z"));
  const world: World = { runs: [] };
  const http = bookingApp(world, { clock });
  await http.fetch(book("09:00", "k-1"));
  clock.advance(59 * 60_000);
  assert.equal((await answer(await http.fetch(book("09:00", "k-1")))).replayed, true);
  clock.advance(2 * 60_000);
  assert.equal((await answer(await http.fetch(book("09:00", "k-1")))).replayed, false);
  assert.equal(world.runs.length, 2);
});

Deno.test("Idempotency-Key: a malformed key is 400 IDEMPOTENCY_KEY_INVALID; a required key missing is 400", async () => {
  const world: World = { runs: [] };
  const http = bookingApp(world, { required: true });
  for (const key of ["", "x".repeat(256), "caf\u00e9"]) {
    const refused = await http.fetch(book("09:00", key));
    assert.equal(refused.status, 400, JSON.stringify(key));
    assert.equal((await refused.json()).code, "IDEMPOTENCY_KEY_INVALID");
  }
  const missing = await http.fetch(book("09:00"));
  assert.equal(missing.status, 400);
  assert.equal((await missing.json()).code, "IDEMPOTENCY_KEY_REQUIRED");
  assert.deepEqual(world.runs, []);
});

Deno.test("Idempotency-Key: the OpenAPI document states the header and the codes with their statuses", () => {
  const http = bookingApp({ runs: [] }, { required: true });
  const operation =
    (http.openapi().paths as Record<string, Record<string, Record<string, unknown>>>)[
      "/bookings"
    ]!.post!;
  const header = (operation.parameters as { name: string; in: string; required: boolean }[])
    .find((p) => p.name === "Idempotency-Key");
  assert.deepEqual({ in: header?.in, required: header?.required }, {
    in: "header",
    required: true,
  });
  const responses = operation.responses as Record<string, unknown>;
  for (const status of ["400", "409", "422"]) assert.ok(status in responses, status);
});

Deno.test("Idempotent routes are writes with a store: a GET or a missing store is refused at composition", () => {
  const route = { guards: [Authenticated], idempotent: true } as const;
  @Controller({ ...route, method: "GET", path: "/x", response: { status: 200 } })
  class ReadX {
    handle(): void {}
  }
  @Controller({ ...route, method: "POST", path: "/y", response: { status: 204 } })
  class WriteY {
    handle(): void {}
  }
  const cases = [
    {
      controller: ReadX,
      http: { idempotency: { store: new InMemoryIdempotencyStore() } },
      refused: /Controller 'ReadX' is idempotent, but GET is not a write/,
    },
    {
      controller: WriteY,
      http: {},
      refused:
        /Controller 'WriteY' is idempotent: give httpPlugin\(\{ idempotency: \{ store \} \}\) a store/,
    },
  ];
  for (const { controller, http, refused } of cases) {
    assert.throws(
      () =>
        composeApplication({
          modules: [defineModule("x", { declarations: [controller] })],
          plugins: { http: httpPlugin(http) },
        }),
      refused,
    );
  }
});

/** The file's schema, migrated with the table the use case writes: each case on it emptied. */
const withSchema = fileSchema(async ({ sql }) => {
  await migrateKernel(sql);
  await sql`create table bookings (slot text not null)`;
});

/** A test on the file's schema (skipped without DATABASE_URL). */
const postgresTest = schemaTest(withSchema);

/** The world of a case on the file's schema (`withSchema`). */
function postgresWorld(sql: postgres.Sql): World {
  return { runs: [], sql };
}

function onPostgres(sql: postgres.Sql, world: World) {
  return bookingApp(world, {
    store: new PostgresIdempotencyStore(sql),
    transactions: new PostgresTransactions(sql),
  });
}

postgresTest(
  "Idempotency-Key on PostgreSQL: the answer is kept in the use case's transaction and replayed",
  async ({ sql }) => {
    const world = postgresWorld(sql);
    const http = onPostgres(sql, world);
    assert.equal((await answer(await http.fetch(book("09:00", "k-1")))).replayed, false);
    assert.deepEqual(await answer(await http.fetch(book("09:00", "k-1"))), {
      status: 201,
      body: { id: "booking-1" },
      replayed: true,
    });
    assert.equal((await http.fetch(book("10:00", "k-1"))).status, 422);
    assert.equal((await sql`select count(*)::int as n from bookings`)[0]!.n, 1);
  },
);

postgresTest(
  "Idempotency-Key on PostgreSQL: a rolled-back use case keeps neither its rows nor the key",
  async ({ sql }) => {
    const world = postgresWorld(sql);
    world.refuse = true;
    const http = onPostgres(sql, world);
    assert.equal((await http.fetch(book("09:00", "k-1"))).status, 409);
    assert.equal((await sql`select count(*)::int as n from bookings`)[0]!.n, 0);
    assert.equal((await sql`select count(*)::int as n from kit_idempotency_keys`)[0]!.n, 0);
    world.refuse = false;
    assert.equal((await http.fetch(book("09:00", "k-1"))).status, 201);
    assert.equal((await sql`select count(*)::int as n from bookings`)[0]!.n, 1);
  },
);

postgresTest(
  "Idempotency-Key on PostgreSQL: concurrent retries of one key run the use case once",
  async ({ sql }) => {
    let open!: () => void;
    const world = postgresWorld(sql);
    world.gate = new Promise((resolve) => (open = resolve));
    const http = onPostgres(sql, world);
    const first = http.fetch(book("09:00", "k-1"));
    await until(() => world.runs.length > 0, "the first request running", { ms: 10_000 });
    const during = await Promise.all([1, 2, 3].map(() => http.fetch(book("09:00", "k-1"))));
    for (const response of during) {
      assert.equal(response.status, 409);
      assert.equal((await response.json()).code, "IDEMPOTENCY_KEY_IN_USE");
    }
    open();
    assert.equal((await first).status, 201);
    const after = await Promise.all(
      [1, 2, 3].map(async () => answer(await http.fetch(book("09:00", "k-1")))),
    );
    for (const replay of after) assert.equal(replay.replayed, true);
    assert.deepEqual(world.runs, ["09:00"]);
    assert.equal((await sql`select count(*)::int as n from bookings`)[0]!.n, 1);
  },
);
