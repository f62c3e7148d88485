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
 * during the freeze ends the process within its deadline. The server stays frozen 30 s (the
 * issue's freeze) and until the process has ended.
 */
import assert from "node:assert/strict";
import type postgres from "postgres";
import {
  adminOf,
  answerWithinMs as withinMs,
  exhaustConnections,
  exhaustionSettings as settings,
  freeze,
  gracefulWithinMs as gracefulMs,
  pause,
  readiness,
  readyAgain,
  shutdownWithinMs as shutdownMs,
  stopWithin,
  thaw,
  waitingOnClient,
  watchReadiness,
  within,
} from "../../../test_support/connection_exhaustion.ts";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import {
  type Booking,
  bookingLoad,
  noPrivatePostgres,
  openCalendar,
  type Seen,
  startApp,
} from "./fault-app.ts";

async function pending(admin: postgres.Sql): Promise<number> {
  const [row] = await admin`
    select count(*)::int as n from kit_outbox_deliveries
    where delivered_at is null and dead_at is null`;
  return row!.n as number;
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
      const admin = await adminOf(server);
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
        const probes = watchReadiness(app.base, startedAt, () => readinessStopped);
        await pause(1_000);

        const exhausted = await exhaustConnections(server, admin, startedAt);

        // Recovery by itself: ready again, and bookings succeed again.
        assert.equal(
          await readyAgain(app.base),
          200,
          "readiness green again once the slots are free",
        );
        await pause(2_000);
        stopped = true;
        const ended = await within(load, withinMs + 2_000);
        assert.notEqual(ended, "no answer", "every request of the load was answered");
        if (ended !== undefined) throw ended;
        readinessStopped = true;
        await probes.done;

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
        const red = probes.seen.filter((probe) =>
          probe.status !== 200 && probe.at >= exhausted.from && probe.at <= exhausted.to + 1_000
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
        const took = await stopWithin(() => app.stop(), gracefulMs, app.errors);
        console.log(`  SIGTERM ended the process in ${Math.round(took)} ms`);
      } finally {
        stopped = true;
        readinessStopped = true;
        await admin.end({ timeout: 1 });
        if (app.alive()) await within(app.stop(), 10_000);
      }
    }, { settings: { max_connections: "60" } }),
});

/** How long the server stays frozen before SIGTERM (issue #28: a 30 s freeze). */
const frozenForMs = 30_000;

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
        assert.equal(await readiness(app.base), 503, "readiness red while the server is frozen");

        // Requests in flight when the server froze, and sent since, ended at their deadline.
        const inFreeze = seen.filter((answer) => answer.at + answer.ms > frozenAt);
        assert.ok(inFreeze.length > 0, "requests were answered during the freeze");
        const sentInFreeze = seen.filter((answer) => answer.at > frozenAt);
        assert.deepEqual(
          sentInFreeze.filter((answer) => answer.status !== 503),
          [],
          "each request sent during the freeze answered 503",
        );
        // The freeze: 30 s. Every request in it keeps ending at its deadline.
        await pause(Math.max(0, frozenForMs - (performance.now() - startedAt - frozenAt)));
        assert.equal(await readiness(app.base), 503, "readiness still red after 30 s frozen");
        assert.ok(
          seen.filter((answer) => answer.at > frozenAt + frozenForMs - withinMs * 2).length > 0,
          "requests still answered at the end of the freeze",
        );
        const slow = seen.filter((answer) => answer.ms > withinMs);
        assert.deepEqual(slow, [], `every answer within ${withinMs} ms of a 30 s freeze`);

        // SIGTERM while the server is still frozen: the process ends within its deadline.
        stopped = true;
        const took = await stopWithin(() => app.stop(), shutdownMs, app.errors);
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
        thaw(frozen);
        if (app.alive()) await within(app.stop(), 10_000);
      }
    }),
});
