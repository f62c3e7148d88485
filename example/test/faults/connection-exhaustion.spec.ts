/**
 * The application under connection exhaustion and a frozen server, as an operator meets them
 * (issue #28): while bookings with an Idempotency-Key run over HTTP against `src/main.ts` (its
 * own process, relay in process) on a private PostgreSQL of 60 connections, other clients take
 * every free slot, the application's backends are terminated (so that it reconnects into a full
 * server: `sorry, too many clients already`), then the slots are freed. Afterwards every request
 * has been answered within its deadline, no session of the application is left waiting on it
 * (`active` on `ClientRead`: a statement half-sent), the relay drains, readiness was red while
 * the application could not work, and SIGTERM ends the process at once (nothing in flight: the
 * database client keeps no statement of a closed session; before `vendor/postgres` patch 7 it
 * waited 5 s for one in 7 runs of 8).
 * Then the server is frozen (SIGSTOP of the postmaster and its backends): requests in flight end
 * at their deadline (3 s statements, 2 s acquire and connect), readiness is red, and SIGTERM
 * during the freeze ends the process within its deadline. The server stays frozen until the
 * process has ended, about 10 s: longer than every deadline, which proves them as the 30 s
 * freeze of the issue would, in a third of the time.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import {
  type PrivatePostgres,
  withPrivatePostgres,
} from "../../../test_support/private_postgres.ts";
import {
  type AppProcess,
  type Booking,
  bookingLoad,
  noPrivatePostgres,
  openCalendar,
  type Seen,
  startApp,
} from "./fault-app.ts";

// Short deadlines, so that the spec stays short: a statement answers within 3 s or fails with
// QUERY_TIMEOUT, a connection comes free within 2 s, a connect takes at most 2 s.
const settings = {
  DATABASE_POOL_SIZE: "10",
  DATABASE_CONNECT_TIMEOUT: "2s",
  DATABASE_ACQUIRE_TIMEOUT: "2s",
  DATABASE_STATEMENT_TIMEOUT: "2s",
  DATABASE_QUERY_TIMEOUT: "3s",
  RELAY_STALLED_AFTER: "5s",
  SHUTDOWN_TIMEOUT: "6s",
};
// The longest a request may take: a connection free in 2 s (or a connect of 2 s after a
// reconnection wait of at most 1 s), then a statement without answer for 3 s, plus a margin
// for a busy machine.
const withinMs = 2_000 + 1_000 + 3_000 + 2_500;
const shutdownMs = 6_000 + 2_000;
// A graceful shutdown with nothing in flight.
const gracefulMs = 2_500;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Settles with the promise's value, or "no answer" after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | "no answer"> {
  let timer!: ReturnType<typeof setTimeout>;
  try {
    return await Promise.race([
      promise,
      new Promise<"no answer">((resolve) => timer = setTimeout(() => resolve("no answer"), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls readiness every 200 ms until stopped, keeping each status with its time. */
function watchReadiness(app: AppProcess, startedAt: number, until: () => boolean) {
  const seen: { at: number; status: number }[] = [];
  const done = (async () => {
    while (!until()) {
      const at = performance.now() - startedAt;
      const status = await within(
        fetch(app.base + "/health/ready").then(async (r) => (await r.body?.cancel(), r.status)),
        5_000,
      ).catch(() => 0);
      seen.push({ at, status: status === "no answer" ? 0 : status });
      await pause(200);
    }
  })();
  return { seen, done };
}

/** The application's sessions (every client backend but the spec's own and the intruders'). */
function appSessions(admin: postgres.Sql) {
  return admin`
    select pid, state, wait_event, extract(epoch from now() - state_change) as idle_for,
      left(query, 80) as query
    from pg_stat_activity
    where backend_type = 'client backend' and pid <> pg_backend_pid()
      and application_name not in ('spec', 'intruder')`;
}

/** Sessions of the application waiting on it, with a statement begun more than `s` ago. */
async function waitingOnClient(admin: postgres.Sql, s: number) {
  return (await appSessions(admin)).filter((row) =>
    row.state === "active" && row.wait_event === "ClientRead" && Number(row.idle_for) > s
  );
}

async function pending(admin: postgres.Sql): Promise<number> {
  const [row] = await admin`
    select count(*)::int as n from kit_outbox_deliveries
    where delivered_at is null and dead_at is null`;
  return row!.n as number;
}

/** Stops the application with SIGTERM, answering how long it took (or throwing past `ms`). */
async function stopWithin(app: AppProcess, ms: number): Promise<number> {
  const started = performance.now();
  const stopped = await within(app.stop(), ms + 5_000);
  const took = performance.now() - started;
  assert.notEqual(
    stopped,
    "no answer",
    `SIGTERM did not end the process: ${app.errors().slice(-2000)}`,
  );
  assert.ok(took < ms, `SIGTERM ended the process in ${Math.round(took)} ms, over ${ms} ms`);
  return took;
}

/**
 * Freezes the server: SIGSTOP to its postmaster first (no backend forked after), then to every
 * backend. Answers the PIDs, for SIGCONT.
 */
async function freeze(server: PrivatePostgres): Promise<number[]> {
  const postmaster = await server.pid();
  assert.ok(postmaster !== undefined, "the server runs");
  Deno.kill(postmaster, "SIGSTOP");
  const children = await Deno.readTextFile(`/proc/${postmaster}/task/${postmaster}/children`);
  const backends = children.trim().split(/\s+/).filter((pid) => pid !== "").map(Number);
  for (const pid of backends) Deno.kill(pid, "SIGSTOP");
  return [postmaster, ...backends];
}

Deno.test({
  name:
    "Connections exhausted, the application's backends terminated, slots freed: every request answered within its deadline, no session left waiting on the client, the relay drains, readiness red meanwhile, SIGTERM in time",
  ignore: noPrivatePostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const app = await startApp(server, settings);
      const admin = postgres(server.url, {
        max: 1,
        onnotice: () => {},
        connection: { application_name: "spec" },
      });
      await admin`select 1`; // connected before the slots run out
      const intruders: postgres.Sql[] = [];
      const seen: Seen[] = [];
      const bookings: Booking[] = [];
      let stopped = false;
      let readinessStopped = false;
      try {
        const calendars = Array.from({ length: 10 }, (_, i) => `exhaust-${i}`);
        for (const calendar of calendars) await openCalendar(app, calendar);
        const startedAt = performance.now();
        const load = Promise.all(
          calendars.map((calendar) =>
            bookingLoad(app, calendar, () => stopped, seen, bookings, startedAt)
          ),
        ).then(() => undefined, (error: unknown) => error);
        const readiness = watchReadiness(app, startedAt, () => readinessStopped);
        await pause(1_000);

        // Other clients open 5 sessions every 0.2 s for 8 s, taking every slot that comes free;
        // 1.5 s in, the application's backends are terminated, and 30 more clients try at once;
        // then, every 0.7 s, its sessions that got a slot back again.
        const exhaustedFrom = performance.now() - startedAt;
        const intrude = (n: number) =>
          Promise.all(Array.from({ length: n }, async () => {
            const intruder = postgres(server.url, {
              max: 1,
              onnotice: () => {},
              connect_timeout: 2,
              connection: { application_name: "intruder" },
            });
            await intruder`select 1`.then(
              () => intruders.push(intruder),
              () => intruder.end({ timeout: 0 }),
            );
          }));
        const intruding = (async () => {
          const end = performance.now() + 8_000;
          while (performance.now() < end) {
            intrude(5);
            await pause(200);
          }
        })();
        await pause(1_500);
        const terminate = () =>
          admin`
            select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
            where backend_type = 'client backend' and pid <> pg_backend_pid()
              and application_name not in ('spec', 'intruder')`;
        const [[terminated]] = await Promise.all([terminate(), intrude(30)]);
        assert.ok(terminated!.n > 0, "the application's backends were terminated");
        // Its sessions that got a slot back are terminated again, four times.
        for (let round = 0; round < 4; round++) {
          await pause(700);
          await terminate();
        }
        await intruding;
        const exhaustedTo = performance.now() - startedAt;
        assert.ok(intruders.length > 20, `the intruders held ${intruders.length} sessions`);
        await Promise.all(intruders.splice(0).map((sql) => sql.end({ timeout: 1 })));

        // Recovery by itself: ready again, and bookings succeed again.
        let ready = 0;
        const recoveryDeadline = performance.now() + 15_000;
        while (ready !== 200 && performance.now() < recoveryDeadline) {
          ready = (await fetch(app.base + "/health/ready").then(async (r) => (
            await r.body?.cancel(), r.status
          ))) as number;
          if (ready !== 200) await pause(200);
        }
        assert.equal(ready, 200, "readiness green again once the slots are free");
        await pause(2_000);
        stopped = true;
        const ended = await within(load, withinMs + 2_000);
        assert.notEqual(ended, "no answer", "every request of the load was answered");
        if (ended !== undefined) throw ended;
        readinessStopped = true;
        await readiness.done;

        // No session of the application left waiting on it (a statement half-sent).
        const stuck = await waitingOnClient(admin, 3);
        assert.deepEqual(stuck, [], "no session of the application waits on ClientRead");

        // Every request answered within its deadline; the relay drains.
        const slow = seen.filter((answer) => answer.ms > withinMs);
        assert.deepEqual(slow, [], `every answer within ${withinMs} ms`);
        const others = seen.filter((answer) =>
          answer.status !== 201 && answer.status !== 503 && answer.status !== 409
        );
        assert.deepEqual(others, [], "only 201, 503 or 409 (key in use)");
        let left = await pending(admin);
        const backlog = left;
        const drainDeadline = performance.now() + 30_000;
        while (left > 0 && performance.now() < drainDeadline) {
          await pause(250);
          left = await pending(admin);
        }
        if (left > 0) {
          console.error(
            await admin`
            select handler, attempts, due_at - now() as due_in, locked_until - now() as locked_for,
              left(last_error, 80) as last_error
            from kit_outbox_deliveries where delivered_at is null and dead_at is null limit 10`,
          );
          console.error(app.errors().slice(-3000));
        }
        assert.equal(left, 0, "the relay drained the outbox");

        // Readiness was red while the application could not work.
        const red = readiness.seen.filter((probe) =>
          probe.status !== 200 && probe.at >= exhaustedFrom && probe.at <= exhaustedTo + 1_000
        );
        assert.ok(red.length > 0, "readiness red while the slots were taken");
        const acknowledged = bookings.filter((booking) => booking.id !== undefined).length;
        console.log(
          `  ${seen.length} answers, ${acknowledged} bookings acknowledged, ` +
            `${seen.filter((a) => a.status === 503).length} answered 503, slowest ${
              Math.round(Math.max(...seen.map((a) => a.ms)))
            } ms, readiness red ${red.length} times, ${backlog} deliveries drained after the load`,
        );

        // Nothing in flight: the process ends at once, its database client without needing the
        // 5 s of `sql.end({ timeout: 5 })` (a connection that kept a statement of a closed
        // session, never to be answered, held it that long).
        const took = await stopWithin(app, gracefulMs);
        console.log(`  SIGTERM ended the process in ${Math.round(took)} ms`);
      } finally {
        stopped = true;
        readinessStopped = true;
        await Promise.all(intruders.map((sql) => sql.end({ timeout: 0 })));
        await admin.end({ timeout: 1 });
        if (app.alive()) await within(app.stop(), 10_000);
      }
    }, { settings: { max_connections: "60" } }),
});

Deno.test({
  name:
    "PostgreSQL frozen (SIGSTOP) under load: requests in flight end at their deadline, readiness red, SIGTERM during the freeze ends the process within its deadline",
  ignore: noPrivatePostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const app = await startApp(server, settings);
      const seen: Seen[] = [];
      const bookings: Booking[] = [];
      let stopped = false;
      let frozen: number[] = [];
      try {
        const calendars = Array.from({ length: 4 }, (_, i) => `frozen-${i}`);
        for (const calendar of calendars) await openCalendar(app, calendar);
        const startedAt = performance.now();
        const load = Promise.all(
          calendars.map((calendar) =>
            bookingLoad(app, calendar, () => stopped, seen, bookings, startedAt)
          ),
        ).then(() => undefined, (error: unknown) => error);
        await pause(1_000);

        frozen = await freeze(server);
        const frozenAt = performance.now() - startedAt;
        await pause(withinMs);
        const probe = await within(
          fetch(app.base + "/health/ready").then(async (r) => (await r.body?.cancel(), r.status)),
          5_000,
        );
        assert.equal(probe, 503, "readiness red while the server is frozen");

        // Requests in flight when the server froze, and sent since, ended at their deadline.
        const inFreeze = seen.filter((answer) => answer.at + answer.ms > frozenAt);
        assert.ok(inFreeze.length > 0, "requests were answered during the freeze");
        const sentInFreeze = seen.filter((answer) => answer.at > frozenAt);
        assert.deepEqual(
          sentInFreeze.filter((answer) => answer.status !== 503),
          [],
          "each request sent during the freeze answered 503",
        );
        const slow = seen.filter((answer) => answer.ms > withinMs);
        assert.deepEqual(slow, [], `every answer within ${withinMs} ms of a 10 s freeze`);

        // SIGTERM while the server is still frozen: the process ends within its deadline.
        stopped = true;
        const took = await stopWithin(app, shutdownMs);
        console.log(
          `  ${inFreeze.length} answers during the freeze, slowest ${
            Math.round(Math.max(...inFreeze.map((a) => a.ms)))
          } ms; SIGTERM ended the process in ${
            Math.round(took)
          } ms (exit ${app.exitStatus()?.code}) ${
            app.errors().split("\n").filter((line) => line.includes("SHUTDOWN_")).join(" ")
          }`,
        );
        await within(load, 5_000);
      } finally {
        stopped = true;
        for (const pid of frozen) {
          try {
            Deno.kill(pid, "SIGCONT");
          } catch {
            // gone
          }
        }
        if (app.alive()) await within(app.stop(), 10_000);
      }
    }),
});
