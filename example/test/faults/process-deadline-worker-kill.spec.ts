/**
 * A worker killed while it runs a deadline of the appointment-confirmation process loses nothing
 * and repeats nothing: the API (`src/main.ts`, enqueueing only, relaying the outbox) and the worker
 * (`apps/worker/main.ts`) run as processes of their own on a private PostgreSQL. An appointment is
 * booked; its release deadline (a background job) is brought forward to now, and the spec holds
 * the appointment's row so that the release blocks inside its transaction; the worker is killed
 * there (SIGKILL to its PID). Nothing of that run commits. Once the job's lease has expired a new
 * worker runs it again, to the end: the appointment is released once, one cancellation is
 * published, the instance handled the deadline once and completed.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import {
  noPrivatePostgres,
  openCalendar,
  receptionist,
  send,
  startApp,
  startWorker,
} from "./fault-app.ts";

const day = 86_400_000;
const hour = 3_600_000;
const deadlineJob = "scheduling.appointment-confirmation-deadline";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 100 ms until it answers true, for at most `ms`; fails naming `what`. */
async function until(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!await probe()) {
    if (Date.now() > deadline) assert.fail(`waited ${ms} ms for ${what}`);
    await pause(100);
  }
}

Deno.test({
  name:
    "the worker killed while a deadline job runs: nothing of that run commits, and after its lease the deadline completes exactly once",
  ignore: noPrivatePostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const api = await startApp(server, { JOBS: "off" });
      let worker = await startWorker(server);
      const sql = postgres(server.url, { max: 2, onnotice: () => {} });
      try {
        await openCalendar(api, "confirm-me");
        // The day after tomorrow, 10:00 UTC: its reminder and release are hours away.
        const startsAt = new Date(Math.ceil(Date.now() / day) * day + day + 10 * hour);
        const booked = await send(api, "POST", "/appointments/", {
          as: receptionist,
          body: {
            calendarId: "confirm-me",
            appointmentTypeId: "quick",
            startsAt: startsAt.toISOString(),
            patientId: "pat-fault",
          },
        });
        assert.equal(booked.status, 201, JSON.stringify(booked.body));
        const id = booked.body.id as string;
        const releaseJob = async () =>
          (await sql`
            select id, status, attempts from scheduling.background_jobs
            where name = ${deadlineJob} and payload->>'key' = ${id}
              and payload->>'name' = 'release'`)[0];
        // The API relays the booking to the process, which requests its deadlines.
        await until("the release deadline's job", 20_000, async () =>
          (await releaseJob()) !== undefined);
        const job = (await releaseJob())!;
        assert.equal(job.status, "waiting");

        // The spec holds the appointment's row: the release will wait for it, in its transaction.
        let letGo!: () => void;
        const held = new Promise<void>((resolve) =>
          letGo = resolve
        );
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => locked = resolve);
        const holder = sql.begin(async (tx) => {
          await tx`select 1 from scheduling.appointments where id = ${id} for update`;
          locked();
          await held;
        });
        await isLocked;
        // An operator's "run it now": the deadline's job due at once (the spec cannot wait a day).
        await sql`update scheduling.background_jobs set run_at = now() where id = ${job.id}`;
        await until("the release running, blocked on the appointment", 20_000, async () => {
          const [blocked] = await sql`
            select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and datname = current_database()`;
          return (await releaseJob())?.status === "running" && blocked!.n > 0;
        });

        const killedAt = performance.now();
        await worker.kill();
        assert.ok(!worker.alive(), "the worker is dead");
        letGo();
        await holder;
        // The dead worker's transaction never commits: the appointment is still booked.
        await pause(500);
        const [still] = await sql`
          select status from scheduling.appointments where id = ${id}`;
        assert.equal(still?.status, "booked", "nothing of the killed run committed");
        assert.equal((await releaseJob())?.status, "running", "the job waits for its lease");

        // A new worker: once the lease ended, the deadline runs again, to its end.
        worker = await startWorker(server);
        await until("the release to succeed", 120_000, async () =>
          (await releaseJob())?.status === "succeeded");
        const done = (await releaseJob())!;
        console.log(
          `  the deadline completed ${Math.round(performance.now() - killedAt)} ms after the kill`,
        );
        assert.equal(done.attempts, 2, "run twice: the killed attempt and the one that ended");

        const [appointment] = await sql`
          select status, cancellation_reason from scheduling.appointments where id = ${id}`;
        assert.deepEqual(
          [appointment?.status, appointment?.cancellation_reason],
          ["cancelled", "not confirmed two hours before its start"],
        );
        const [published] = await sql`
          select count(*)::int as n from kit_outbox
          where type = 'scheduling.appointment.cancelled' and payload->>'appointmentId' = ${id}`;
        assert.equal(published?.n, 1, "one cancellation published");
        const [instance] = await sql`
          select status from scheduling.kit_process_instances where key = ${id}`;
        assert.equal(instance?.status, "completed");
        const deadlines = await sql`
          select name from scheduling.kit_process_messages
          where key = ${id} and kind = 'deadline' order by seq`;
        assert.deepEqual(
          deadlines.map((m) =>
            m.name
          ),
          ["release"],
          "the deadline handled once",
        );
        // The patient is told once (the API relays the cancellation to notifications).
        await until("the patient told of the cancellation", 20_000, async () => {
          const [told] = await sql`
            select count(*)::int as n from notifications.notifications
            where related_id = ${id} and kind = 'appointment-cancelled'`;
          return told!.n === 1;
        });
        assert.ok(api.alive(), `the API exited: ${api.errors().slice(-3000)}`);
        assert.ok(worker.alive(), `the worker exited: ${worker.errors().slice(-3000)}`);
      } finally {
        await sql.end({ timeout: 5 });
        await worker.stop();
        await api.stop();
      }
    }),
});
