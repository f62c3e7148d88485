/**
 * The application survives PostgreSQL going away under load, as an operator meets it: while
 * bookings run over HTTP against `src/main.ts` (its own process, worker and relay in process) on
 * a private PostgreSQL, the spec terminates every backend, restarts the server twice, then stops
 * it for a few seconds and starts it again. The process never exits; every answer is a 201 or a
 * 503 problem with Retry-After (no 500), each within the configured time-outs; readiness is red
 * while the server is down and liveness green; after recovery every request succeeds without a
 * restart; every booking whose 201 was received is stored, and none twice.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import {
  type AppProcess,
  type Booking,
  bookingLoad,
  noPrivatePostgres,
  openCalendar,
  receptionist,
  type Seen,
  send,
  startApp,
} from "./fault-app.ts";

// The application's database settings: short time-outs, so that the spec stays short.
const timeouts = {
  DATABASE_POOL_SIZE: "6",
  DATABASE_CONNECT_TIMEOUT: "2s",
  DATABASE_ACQUIRE_TIMEOUT: "2s",
};
// The longest an answer may take while the database is away: waiting for a connection (2 s) or
// for the reconnection (at most 1 s) and its connect (2 s), plus a margin for a busy machine.
const withinMs = 2_000 + 1_000 + 2_000 + 3_000;
const clients = 6;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function status(app: AppProcess, path: string): Promise<number> {
  const response = await fetch(app.base + path);
  await response.body?.cancel();
  return response.status;
}

Deno.test({
  name:
    "PostgreSQL restarted, stopped and its backends terminated under load: the process lives, answers 503 with Retry-After in time, recovers by itself, loses no acknowledged booking",
  ignore: noPrivatePostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const app = await startApp(server, timeouts);
      const seen: Seen[] = [];
      const bookings: Booking[] = [];
      let stopped = false;
      try {
        const calendars = Array.from({ length: clients }, (_, i) => `fault-${i}`);
        for (const calendar of calendars) await openCalendar(app, calendar);
        const startedAt = performance.now();
        // The load's failure (the application gone) is answered when the load ends.
        const load = Promise.all(
          calendars.map((calendar) =>
            bookingLoad(app, calendar, () => stopped, seen, bookings, startedAt)
          ),
        ).then(() => undefined, (error: unknown) => error);
        await pause(1_000);

        // Killed connections: every backend terminated, three times.
        for (let i = 0; i < 3; i++) {
          await server.terminateBackends();
          await pause(300);
        }
        // Restarts under load.
        for (let i = 0; i < 2; i++) {
          await server.restart("fast");
          await pause(1_500);
        }
        if (!app.alive()) throw await load ?? new Error(`the process exited: ${app.errors()}`);

        // An outage: the server stopped for a few seconds.
        await server.stop("fast");
        const outageFrom = performance.now() - startedAt;
        await pause(1_000);
        assert.equal(await status(app, "/health/ready"), 503, "readiness red");
        assert.equal(await status(app, "/health/live"), 200, "liveness green");
        await pause(3_000);
        const outageTo = performance.now() - startedAt;
        await server.start();

        // Recovery without restart: ready again within a few seconds.
        let ready = 0;
        for (let i = 0; i < 100 && ready !== 200; i++) {
          ready = await status(app, "/health/ready");
          if (ready !== 200) await pause(100);
        }
        assert.equal(ready, 200, "readiness green again once the server is back");
        await pause(1_500);
        stopped = true;
        const failed = await load;
        if (failed !== undefined) throw failed;
        assert.ok(app.alive(), `the process exited: ${app.errors().slice(-3000)}`);

        // Every answer a 201 or a 503 problem with Retry-After, in time; no 500.
        const others = seen.filter((answer) =>
          answer.status !== 201 &&
          !(answer.status === 503 && answer.code === "SERVICE_UNAVAILABLE" &&
            answer.retryAfter === "5") &&
          !(answer.status === 409 && answer.code === "IDEMPOTENCY_KEY_IN_USE")
        );
        assert.deepEqual(others, [], "only 201, 503 SERVICE_UNAVAILABLE or 409 IN_USE");
        const slow = seen.filter((answer) => answer.ms > withinMs);
        assert.deepEqual(slow, [], `every answer within ${withinMs} ms`);
        const duringOutage = seen.filter((answer) =>
          answer.at > outageFrom + 500 && answer.at + answer.ms < outageTo
        );
        assert.ok(duringOutage.length > 0, "requests were answered during the outage");
        assert.ok(
          duringOutage.every((answer) => answer.status === 503),
          "every request during the outage answered 503",
        );

        // After recovery every request succeeds, first time.
        const after = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            send(app, "POST", "/appointments/", {
              as: receptionist,
              key: crypto.randomUUID(),
              body: {
                calendarId: calendars[i % clients],
                appointmentTypeId: "quick",
                startsAt: new Date(
                  Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 40 * 86_400_000 +
                    i * 15 * 60_000,
                ).toISOString(),
                patientId: `after-${i}`,
              },
            })),
        );
        assert.deepEqual(after.map((answer) => answer.status), after.map(() => 201));

        // No acknowledged booking lost, none stored twice.
        const sql = postgres(server.url, { max: 1, onnotice: () => {} });
        try {
          const rows = await sql`
            select id, patient_id from scheduling.appointments where calendar_id like 'fault-%'`;
          const stored = new Set(rows.map((row) => row.id as string));
          const acknowledged = bookings.filter((booking) => booking.id !== undefined);
          const lost = acknowledged.filter((booking) => !stored.has(booking.id!));
          assert.deepEqual(lost, [], "every booking whose 201 was received is stored");
          const perPatient = new Map<string, number>();
          for (const row of rows) {
            const patient = row.patient_id as string;
            perPatient.set(patient, (perPatient.get(patient) ?? 0) + 1);
          }
          const twice = [...perPatient].filter(([, count]) => count > 1);
          assert.deepEqual(twice, [], "no booking stored twice (retries carry the same key)");
          const retried = bookings.filter((booking) => booking.attempts > 1).length;
          console.log(
            `  ${seen.length} answers, ${acknowledged.length} bookings acknowledged, ` +
              `${retried} retried, ${seen.filter((a) => a.status === 503).length} answered 503, ` +
              `${rows.length} stored; slowest answer ${
                Math.round(Math.max(...seen.map((a) => a.ms)))
              } ms`,
          );
        } finally {
          await sql.end({ timeout: 1 });
        }
      } finally {
        stopped = true;
        const exitedBefore = app.exitStatus();
        await app.stop();
        if (exitedBefore !== undefined) {
          console.error(app.errors().slice(-5000));
        }
      }
    }),
});
