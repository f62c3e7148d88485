/**
 * The outbox relay survives PostgreSQL going away and catches up by itself: bookings run over
 * HTTP against `src/main.ts` (the relay in process) on a private PostgreSQL while every backend is
 * terminated, the server restarted, then stopped for a few seconds. Afterwards every stored
 * booking's event reaches the analytics handler, whose count then equals the bookings stored:
 * no event lost, none counted twice (the handler records the events it processed).
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import {
  type Booking,
  bookingLoad,
  noPrivatePostgres,
  openCalendar,
  type Seen,
  startApp,
} from "./fault-app.ts";

const timeouts = {
  DATABASE_POOL_SIZE: "6",
  DATABASE_CONNECT_TIMEOUT: "2s",
  DATABASE_ACQUIRE_TIMEOUT: "2s",
  JOBS: "off",
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test({
  name:
    "PostgreSQL restarted, stopped and its backends terminated under bookings: the relay catches up by itself, every stored booking counted once",
  ignore: noPrivatePostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const app = await startApp(server, timeouts);
      const seen: Seen[] = [];
      const bookings: Booking[] = [];
      let stopped = false;
      const sql = postgres(server.url, { max: 1, onnotice: () => {} });
      try {
        const calendars = ["relay-0", "relay-1"];
        for (const calendar of calendars) await openCalendar(app, calendar);
        const startedAt = performance.now();
        const load = Promise.all(
          calendars.map((calendar) =>
            bookingLoad(app, calendar, () => stopped, seen, bookings, startedAt, 40)
          ),
        ).then(() => undefined, (error: unknown) => error);
        await pause(1_000);
        for (let i = 0; i < 3; i++) {
          await server.terminateBackends();
          await pause(300);
        }
        await server.restart("fast");
        await pause(1_500);
        await server.stop("fast");
        await pause(3_000);
        await server.start();
        await pause(2_000);
        stopped = true;
        const failed = await load;
        if (failed !== undefined) throw failed;
        assert.ok(app.alive(), `the process exited: ${app.errors().slice(-3000)}`);

        const [total] = await sql<{ stored: number }[]>`
          select count(*)::int as stored from scheduling.appointments
          where calendar_id like 'relay-%'`;
        const stored = total!.stored;
        assert.ok(stored >= bookings.filter((booking) => booking.id !== undefined).length);
        let counted = -1;
        for (let i = 0; i < 300 && counted !== stored; i++) {
          const [row] = await sql<{ counted: number }[]>`
            select coalesce(sum(booked), 0)::int as counted from analytics.daily_bookings
            where calendar_id like 'relay-%'`;
          counted = row!.counted;
          if (counted !== stored) await pause(200);
        }
        assert.equal(counted, stored, "every stored booking's event counted once");
        assert.ok(app.alive(), `the process exited: ${app.errors().slice(-3000)}`);
        console.log(`  ${stored} bookings stored, each counted once by the relayed handler`);
      } finally {
        stopped = true;
        await sql.end({ timeout: 1 });
        await app.stop();
      }
    }),
});
