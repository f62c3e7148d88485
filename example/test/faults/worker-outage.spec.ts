/**
 * The worker process survives PostgreSQL going away while it works, and resumes by itself: the
 * API (`src/main.ts`, enqueueing only) and the worker (`apps/worker/main.ts`) run as processes
 * of their own on a private PostgreSQL; clearances are requested over HTTP while every backend is
 * terminated, the server restarted, then stopped for a few seconds and started again. Neither
 * process exits; the worker's readiness is red while the server is down and green after; every
 * clearance whose 202 was received succeeds afterwards, without a restart.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import {
  type AppProcess,
  noPrivatePostgres,
  openCalendar,
  practitioner,
  send,
  startApp,
  startWorker,
} from "./fault-app.ts";

const timeouts = {
  DATABASE_POOL_SIZE: "4",
  DATABASE_CONNECT_TIMEOUT: "2s",
  DATABASE_ACQUIRE_TIMEOUT: "2s",
};
const day = 86_400_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function status(process: AppProcess, path: string): Promise<number> {
  const response = await fetch(process.base + path);
  await response.body?.cancel();
  return response.status;
}

/** Requests clearances of one day each, one after another, until told to stop. */
async function requestClearances(
  api: AppProcess,
  until: () => boolean,
  accepted: string[],
  answers: number[],
): Promise<void> {
  const first = Math.ceil(Date.now() / day) * day + day;
  for (let i = 0; !until(); i++) {
    const answer = await send(api, "POST", "/calendars/clear-me/clearances", {
      as: practitioner,
      body: {
        from: new Date(first + (i % 50) * day).toISOString(),
        until: new Date(first + (i % 50 + 1) * day).toISOString(),
        reason: `fault ${i}`,
      },
    });
    answers.push(answer.status);
    if (answer.status === 202) accepted.push(answer.body.id as string);
    await pause(answer.status === 202 ? 50 : 200);
  }
}

Deno.test({
  name:
    "PostgreSQL restarted, stopped and its backends terminated while the worker works: it lives, its readiness follows the database, every accepted job succeeds afterwards",
  ignore: noPrivatePostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const api = await startApp(server, { ...timeouts, JOBS: "off" });
      const worker = await startWorker(server, timeouts);
      const accepted: string[] = [];
      const answers: number[] = [];
      let stopped = false;
      try {
        await openCalendar(api, "clear-me");
        const load = requestClearances(api, () => stopped, accepted, answers)
          .then(() => undefined, (error: unknown) => error);
        await pause(1_000);
        for (let i = 0; i < 3; i++) {
          await server.terminateBackends();
          await pause(300);
        }
        await server.restart("fast");
        await pause(1_500);
        await server.stop("fast");
        await pause(1_000);
        assert.equal(await status(worker, "/health/ready"), 503, "the worker's readiness red");
        assert.equal(await status(worker, "/health/live"), 200, "the worker's liveness green");
        await pause(2_000);
        await server.start();
        let ready = 0;
        for (let i = 0; i < 100 && ready !== 200; i++) {
          ready = await status(worker, "/health/ready");
          if (ready !== 200) await pause(100);
        }
        assert.equal(ready, 200, "the worker's readiness green again");
        await pause(1_000);
        stopped = true;
        const failed = await load;
        if (failed !== undefined) throw failed;
        assert.ok(api.alive(), `the API exited: ${api.errors().slice(-3000)}`);
        assert.ok(worker.alive(), `the worker exited: ${worker.errors().slice(-3000)}`);
        assert.deepEqual(
          answers.filter((code) => code !== 202 && code !== 503),
          [],
          "every request answered 202 or 503",
        );
        assert.ok(accepted.length > 0);

        // Every accepted clearance succeeds, the worker not restarted.
        const pending = new Set(accepted);
        for (let round = 0; round < 150 && pending.size > 0; round++) {
          for (const id of [...pending]) {
            const answer = await send(api, "GET", `/calendars/clear-me/clearances/${id}`, {
              as: practitioner,
            });
            assert.notEqual(answer.status, 404, `clearance ${id} was accepted, then lost`);
            if (answer.status === 200 && answer.body.status === "succeeded") pending.delete(id);
          }
          if (pending.size > 0) await pause(200);
        }
        if (pending.size > 0) {
          const sql = postgres(server.url, { max: 1, onnotice: () => {} });
          const rows = await sql`
            select id, status, attempts, run_at, lease_expires_at, last_error_code,
              last_error_message, now() as now
            from scheduling.background_jobs where id in ${sql([...pending])}`;
          await sql.end();
          assert.fail(
            `accepted clearances not succeeded: ${JSON.stringify(rows)}\n` +
              `worker: ${worker.errors().slice(-3000)}`,
          );
        }
        assert.ok(worker.alive(), `the worker exited: ${worker.errors().slice(-3000)}`);
        console.log(
          `  ${answers.length} requests, ${accepted.length} accepted and succeeded, ` +
            `${answers.filter((code) => code === 503).length} answered 503`,
        );
      } finally {
        stopped = true;
        await worker.stop();
        await api.stop();
      }
    }),
});
