/**
 * What kit's patch of postgres.js 3.4.9 guarantees (see README.md beside this file), each
 * against a socket of the test's own that it closes at a chosen moment. Every test here fails
 * on the upstream 3.4.9: the first crashes the process, the second commits a statement of a
 * failed transaction, the third times out, the fourth crashes, the last leaves its statements
 * without an answer (the connection-exhaustion wedge of issue #28).
 */
import assert from "node:assert/strict";
import net from "node:net";
import postgres from "postgres";
import Connection from "./src/connection.js";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";

interface Harness {
  readonly sql: postgres.Sql;
  /** The sockets the client opened, oldest first. */
  readonly sockets: net.Socket[];
}

function client(
  url: string,
  schema: string,
  options: postgres.Options<never> = {},
): Harness {
  const { hostname, port } = new URL(url);
  const sockets: net.Socket[] = [];
  // `socket` (a socket of the caller's own) is an option of the driver its types omit.
  const ownSocket = {
    socket: () => {
      const socket = net.connect({
        host: hostname,
        port: Number(port || 5432),
      });
      sockets.push(socket);
      return socket;
    },
  };
  const sql = postgres(url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 3,
    connection: { search_path: schema },
    ...options,
    ...ownSocket as postgres.Options<never>,
  });
  return { sql, sockets };
}

/** Closes the socket and waits until the driver has seen it close. */
async function closeSocket(socket: net.Socket): Promise<void> {
  const closed = new Promise((resolve) => socket.once("close", resolve));
  socket.destroy();
  await closed;
}

function patchTest(
  name: string,
  fn: (url: string, schema: string) => Promise<void>,
): void {
  Deno.test({
    name,
    ignore: ignoreWithout("DATABASE_URL"),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withTestDatabase(({ url, schema }) => fn(url, schema), { max: 1 }),
  });
}

patchTest(
  "postgres.js (kit patch 1, 4): a statement of a transaction whose connection closed is refused with CONNECTION_CLOSED; the process lives",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema);
    try {
      let inner!: Promise<unknown>;
      const work = sql.begin((tx) =>
        inner = (async () => {
          await tx`select 1`;
          await closeSocket(sockets.at(-1)!);
          // Upstream writes this statement to a null socket from setImmediate: an uncaught
          // TypeError that no try/catch reaches.
          return await tx`select 2`.catch((error) => error);
        })()
      );
      await assert.rejects(work, { code: "CONNECTION_CLOSED" });
      assert.equal(
        ((await inner) as { code?: string }).code,
        "CONNECTION_CLOSED",
      );
      const [row] = await sql`select 3 as three`;
      assert.equal(row?.three, 3, "the pool connects again");
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 4): a transaction's statement never runs on the connection's next session, outside the transaction",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema);
    try {
      await sql`create table patch_rows (label text not null)`;
      let inner!: Promise<unknown>;
      const work = sql.begin((tx) =>
        inner = (async () => {
          await tx`insert into patch_rows values ('inside')`;
          await closeSocket(sockets.at(-1)!);
          // Other work takes the pool's only connection: it connects again, a new session.
          await sql`select 1`;
          return await tx`insert into patch_rows values ('after the close')`
            .catch((e) => e);
        })()
      );
      await assert.rejects(work, { code: "CONNECTION_CLOSED" });
      assert.equal(
        ((await inner) as { code?: string }).code,
        "CONNECTION_CLOSED",
      );
      const rows = await sql`select label from patch_rows`;
      assert.deepEqual(
        [...rows],
        [],
        "nothing of the failed transaction was committed",
      );
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 3): a connection that closes while a write is scheduled connects again at once (nothing stale held back)",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema, { connect_timeout: 2 });
    try {
      await sql`select 1`;
      const socket = sockets.at(-1)!;
      const first = sql`select 2`.then(() => "answered", (error) => error.code);
      await Promise.resolve();
      // The reset arrives in the same turn as the write it overtakes (as under load): upstream
      // clears the scheduled write but leaves its timer set, so that no later write is sent and
      // the next connect times out.
      socket.emit(
        "error",
        Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
      );
      socket.emit("close", true);
      socket.destroy();
      assert.equal(await first, "ECONNRESET");
      const [row] = await sql`select 3 as three`;
      assert.equal(row?.three, 3);
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 4): a reserved connection whose session ended refuses its statements, its release is harmless, and the pool serves new work",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema, { max: 2 });
    try {
      const reserved = await sql.reserve();
      await reserved`select 1`;
      await closeSocket(sockets.at(-1)!);
      await assert.rejects(reserved`select 2`, { code: "CONNECTION_CLOSED" });
      await assert.rejects(reserved`select 3`, { code: "CONNECTION_CLOSED" });
      reserved.release();
      const answers = await Promise.all(
        [1, 2, 3, 4].map((n) => sql`select ${n}::int as n`),
      );
      assert.deepEqual(answers.map(([row]) => row?.n), [1, 2, 3, 4]);
      const again = await sql.reserve();
      const [row] = await again`select 5 as five`;
      assert.equal(row?.five, 5);
      again.release();
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 5): acquire_timeout refuses a query that waited that long for a connection with ACQUIRE_TIMEOUT, and it never runs later",
  async (url, schema) => {
    const { sql } = client(url, schema, { acquire_timeout: 0.2 } as postgres.Options<never>);
    try {
      await sql`create table patch_waits (n int)`;
      let release!: () => void;
      let holds!: () => void;
      const held = new Promise<void>((resolve) => holds = resolve);
      const holding = sql.begin(async (tx) => {
        await tx`insert into patch_waits values (1)`;
        holds();
        await new Promise<void>((resolve) => release = resolve);
      });
      await held;
      const outcome = (error: { code?: string }) => error.code;
      const queued = sql`insert into patch_waits values (2)`.then(() => "ran", outcome);
      const reserving = sql.reserve().then(() => "reserved", outcome);
      assert.equal(await queued, "ACQUIRE_TIMEOUT");
      assert.equal(await reserving, "ACQUIRE_TIMEOUT");
      const served = sql`insert into patch_waits values (3)`.execute();
      release();
      await holding;
      await served;
      const rows = await sql`select n from patch_waits order by n`;
      assert.deepEqual(rows.map((row) => row.n), [1, 3]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 6): a connection lost while it fetches the array types fails the first query, not the process",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema);
    let cut = false;
    const original = net.Socket.prototype.write;
    try {
      // The first connection is cut as soon as it asks for the array types.
      const first = sql`select 1 as one`.then(() => "answered", (error) => error.message);
      while (sockets.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      const socket = sockets[0]!;
      socket.write = function (this: net.Socket, ...args: unknown[]) {
        const written = (original as (...a: unknown[]) => boolean).apply(this, args);
        if (!cut && String(args[0]).includes("typarray")) {
          cut = true;
          queueMicrotask(() => socket.destroy(new Error("read ECONNRESET")));
        }
        return written;
      } as typeof socket.write;
      assert.equal(await first, "read ECONNRESET");
      assert.ok(cut, "the array types were asked for");
      const [row] = await sql`select 2 as two`;
      assert.equal(row?.two, 2);
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

/** Settles with the promise's outcome, or "no answer" once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "no answer"> {
  let timer!: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise,
    new Promise<"no answer">((resolve) => timer = setTimeout(() => resolve("no answer"), ms)),
  ]).finally(() => clearTimeout(timer));
}

patchTest(
  "postgres.js (kit patch 7): a statement sent between a connection's error and its close settles with it; the next session answers its own statements, none is left half-sent with the server waiting on the client",
  async (url, schema) => {
    const application = `kit-wedge-${crypto.randomUUID().slice(0, 8)}`;
    const { sql, sockets } = client(url, schema, {
      connection: { search_path: schema, application_name: application },
    });
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await sql`select 1`;
      const socket = sockets.at(-1)!;
      const outcome = (error: { code?: string }) => error.code;
      let reset!: () => void;
      const resetDone = new Promise<void>((resolve) => reset = resolve);
      const failed = sql.begin(async (tx) => {
        const inFlight = tx`select pg_sleep(0.2)`.execute();
        await new Promise((resolve) => setTimeout(resolve, 20));
        // The reset arrives before the socket closes (as Deno's node:net reports an ECONNRESET
        // of a backend terminated under load): the transaction's `rollback` is sent in between.
        socket.emit("error", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
        reset();
        await inFlight;
      }).then(() => "committed", outcome);
      await resetDone;
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.emit("close", true);
      socket.destroy();
      assert.equal(await within(failed, 3_000), "CONNECTION_CLOSED", "the transaction fails");
      // The next session: parameterised statements (Parse, Describe, Flush, then Bind once the
      // parameters are described), as the idempotency-key lookup and the relay's claim send.
      const answers = await within(
        Promise.all(
          [1, 2, 3, 4].map((n) => sql`select ${n}::int as n`.then(([row]) => row?.n, outcome)),
        ),
        3_000,
      );
      const waiting = await admin`
        select state, wait_event, query from pg_stat_activity
        where application_name = ${application} and state = 'active'
          and wait_event = 'ClientRead'`;
      assert.deepEqual([...waiting], [], "no session left waiting on the client");
      assert.deepEqual(answers, [1, 2, 3, 4], "every statement of the next session answered");
    } finally {
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 8): query_timeout fails a statement that gets no answer in time with QUERY_TIMEOUT and destroys its connection; the next statement runs on a new one",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema, { query_timeout: 0.3 } as postgres.Options<never>);
    try {
      const [slow] = await sql`select pg_sleep(0.1), 1 as one`;
      assert.equal(slow?.one, 1, "a statement answered in time is unaffected");
      const socket = sockets.at(-1)!;
      // The server's answers no longer arrive, as from a frozen server (SIGSTOP).
      socket.pause();
      const started = performance.now();
      const outcome = await within(
        sql`select 2`.then(() => "answered", (error) => error.code),
        3_000,
      );
      const tookMs = performance.now() - started;
      assert.equal(outcome, "QUERY_TIMEOUT");
      assert.ok(tookMs >= 250 && tookMs < 2_000, `failed at its deadline, after ${tookMs} ms`);
      assert.ok(socket.destroyed, "the connection is destroyed, never reused");
      const [row] = await sql`select 3 as three`;
      assert.equal(row?.three, 3);
      assert.equal(sockets.length, 2, "on a new connection");
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 7): sql.end() after a connection was lost under a statement ends at once, not at its time-out (upstream #1130)",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema);
    try {
      await sql`select 1`;
      const socket = sockets.at(-1)!;
      const lost = sql`select pg_sleep(0.2)`.then(() => "answered", (error) => error.code);
      await new Promise((resolve) => setTimeout(resolve, 20));
      socket.emit("error", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
      socket.emit("close", true);
      socket.destroy();
      assert.equal(await lost, "ECONNRESET");
      // Upstream keeps the lost statement as the one being answered: end() waits for its answer
      // until its time-out.
      const started = performance.now();
      await sql.end({ timeout: 2 });
      const tookMs = performance.now() - started;
      assert.ok(tookMs < 1_000, `sql.end() took ${Math.round(tookMs)} ms`);
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

patchTest(
  "postgres.js (kit patch 7): a cursor whose connection closes while its callback runs fails with CONNECTION_CLOSED; the process lives and the pool serves new work",
  async (url, schema) => {
    const { sql, sockets } = client(url, schema);
    try {
      // Upstream writes the cursor's next fetch to the closed socket (a TypeError thrown from
      // setImmediate, #1154); with the session reset at the close and no guard, the callback's
      // continuation read the reset statement (an unhandled rejection). Either ends the process.
      const outcome = await sql`select generate_series(1, 10) as n`
        .cursor(2, () => closeSocket(sockets.at(-1)!))
        .then(() => "finished", (error) => error.code);
      assert.equal(outcome, "CONNECTION_CLOSED");
      const [row] = await sql`select 3 as three`;
      assert.equal(row?.three, 3);
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

/** What `sql.poolState()` (kit patch 9) answers; upstream's types do not name it. */
interface PoolState {
  readonly inUse: number;
  readonly idle: number;
  readonly connecting: number;
  readonly waiting: number;
  readonly lastAnswerAt: number;
}

patchTest(
  "postgres.js (kit patch 9): sql.poolState() counts the connections in use and idle, the statements waiting for one, and when the server last answered",
  async (url, schema) => {
    const { sql } = client(url, schema);
    const state = () => (sql as unknown as { poolState(): PoolState }).poolState();
    try {
      const before = Date.now();
      assert.deepEqual({ ...state(), lastAnswerAt: 0 }, {
        inUse: 0,
        idle: 0,
        connecting: 0,
        waiting: 0,
        lastAnswerAt: 0,
      });
      const reserved = await sql.reserve();
      await reserved`select 1`;
      const queued = sql`select 2 as two`.execute();
      await Promise.resolve(); // the statement is handed to the pool a microtask later
      assert.equal(state().inUse, 1);
      assert.equal(state().waiting, 1, "the pool's only connection is reserved");
      assert.ok(state().lastAnswerAt >= before);
      reserved.release();
      const [row] = await queued;
      assert.equal(row?.two, 2);
      assert.deepEqual([state().inUse, state().idle, state().waiting], [0, 1, 0]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
);

Deno.test("postgres.js (kit patch 1): a statement given to a connection without a socket is refused with CONNECTION_CLOSED at once, nothing written", () => {
  // The connection is never connected: it has no socket, as after a close.
  const connection = Connection({
    host: ["127.0.0.1"],
    port: [5432],
    idle_timeout: null,
    max_lifetime: null,
    connect_timeout: null,
    shared: { retries: 0, typeArrayMap: {} },
  });
  let refusal: { code?: string } | undefined;
  const statement = {
    origin: "",
    string: "select 1",
    parameters: [],
    args: [],
    types: [],
    resolve: () => {},
    reject: (error: { code?: string }) => refusal = error,
  };
  connection.execute(statement);
  // Upstream (and the nextWrite guard of patch 2 alone) would write it from setImmediate: the
  // statement would become the connection's own and settle only in a later turn, if at all.
  assert.equal(refusal?.code, "CONNECTION_CLOSED");
  assert.equal("state" in statement, false, "the statement was not sent");
});

Deno.test("postgres.js (kit patch 10): every built-in module is imported as node:<name> (Deno gives a local module no bare built-ins)", () => {
  const bare = /^import .* from '(net|tls|crypto|stream|perf_hooks|os|fs)'/gm;
  const found = [...Deno.readDirSync(new URL("./src/", import.meta.url))].flatMap((entry) =>
    [...Deno.readTextFileSync(new URL(`./src/${entry.name}`, import.meta.url)).matchAll(bare)]
      .map((m) => `${entry.name}: ${m[0]}`)
  );
  assert.deepEqual(found, []);
});
