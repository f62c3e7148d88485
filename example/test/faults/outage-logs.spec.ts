/**
 * The logs of an outage, as an on-call engineer reads them: `src/main.ts` (its own process, with
 * `LOG_FORMAT=json`) under a booking load and readiness probes on a private PostgreSQL, which is
 * stopped for 10 s and started again. Every line the process prints parses as one JSON object with
 * time, level, component, code and count; none holds a stack trace; the outage is a few lines
 * (one per problem, its repeats summarised with their count), not one per failure.
 */
import assert from "node:assert/strict";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import {
  type Booking,
  bookingLoad,
  noPrivatePostgres,
  openCalendar,
  type Seen,
  startApp,
} from "./fault-app.ts";

const clients = 4;
/** The most lines the 10 s outage and the recovery may take: one per problem and its summaries. */
const maxOutageLines = 20;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test({
  name:
    "PostgreSQL stopped for 10 s under load: the JSON log is a few parsed lines with a code and a count, no stack trace",
  ignore: noPrivatePostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const app = await startApp(server, {
        LOG_FORMAT: "json",
        DATABASE_POOL_SIZE: "6",
        DATABASE_CONNECT_TIMEOUT: "2s",
        DATABASE_ACQUIRE_TIMEOUT: "2s",
      });
      const seen: Seen[] = [];
      const bookings: Booking[] = [];
      let stopped = false;
      try {
        const calendars = Array.from({ length: clients }, (_, i) => `logs-${i}`);
        for (const calendar of calendars) await openCalendar(app, calendar);
        const startedAt = performance.now();
        const load = Promise.all([
          ...calendars.map((calendar) =>
            bookingLoad(app, calendar, () => stopped, seen, bookings, startedAt)
          ),
          // A readiness probe twice a second, as an orchestrator sends it.
          (async () => {
            while (!stopped) {
              await (await fetch(`${app.base}/health/ready`)).body?.cancel();
              await pause(500);
            }
          })(),
        ]).then(() => undefined, (error: unknown) => error);
        await pause(1_500);

        const outageFrom = performance.now();
        await server.stop("fast");
        await pause(10_000);
        await server.start();
        let ready = 0;
        for (let i = 0; i < 150 && ready !== 200; i++) {
          const response = await fetch(`${app.base}/health/ready`);
          await response.body?.cancel();
          ready = response.status;
          if (ready !== 200) await pause(100);
        }
        assert.equal(ready, 200, "ready again once the server is back");
        // The summaries of the outage's last window.
        await pause(11_000);
        const outageTo = performance.now();
        stopped = true;
        const failed = await load;
        if (failed !== undefined) throw failed;
        assert.ok(seen.some((answer) => answer.status === 503), "the load met the outage");

        const all = app.lines().filter((line) => line.text.trim() !== "");
        const records = all.map((line) => {
          try {
            return JSON.parse(line.text) as Record<string, unknown>;
          } catch {
            assert.fail(`a line that is no JSON (${line.stream}): ${line.text}`);
          }
        });
        for (const record of records) {
          assert.equal(typeof record.time, "string", JSON.stringify(record));
          assert.ok(!Number.isNaN(Date.parse(record.time as string)), JSON.stringify(record));
          assert.ok(["debug", "info", "warn", "error"].includes(record.level as string));
          assert.equal(typeof record.component, "string", JSON.stringify(record));
          assert.match(record.code as string, /^[A-Z][A-Z0-9_]*$/, JSON.stringify(record));
          assert.ok(Number.isInteger(record.count) && (record.count as number) >= 1);
          assert.notEqual(record.bug, true, `a bug: ${JSON.stringify(record)}`);
          assert.doesNotMatch(JSON.stringify(record), /\\n\s+at /, "no stack trace");
        }
        const during = all.filter((line) => line.at >= outageFrom && line.at <= outageTo);
        const summary = during.map((line) => {
          const record = JSON.parse(line.text);
          return `${record.level} ${record.component} ${record.code} count=${record.count}`;
        });
        console.log(`the outage's ${during.length} lines:\n  ${summary.join("\n  ")}`);
        const failures = seen.filter((answer) => answer.status !== 201).length;
        assert.ok(
          during.length <= maxOutageLines,
          `${during.length} lines for ${failures} failed requests (at most ${maxOutageLines})`,
        );
        assert.ok(during.length > 0, "the outage is logged");
        const counted = records.reduce((sum, r) => sum + (r.count as number), 0);
        assert.ok(counted >= during.length, "the counts say how often");
      } finally {
        stopped = true;
        await app.stop();
      }
    }),
});
