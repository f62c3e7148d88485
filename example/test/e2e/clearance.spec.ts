import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { BackgroundJobExecution } from "@kit/kernel";
import { Background } from "@kit/jobs";
import { callers, type Client, e2e } from "./e2e.ts";

const monday = (hhmm: string) => `2026-03-02T${hhmm}:00Z`;
const as = callers.practitioner;

async function openCalendar(client: Client, id: string, allDay = false): Promise<void> {
  assert.equal((await client.send("PUT", `/calendars/${id}`, { as })).status, 201);
  assert.equal(
    (await client.send("PUT", `/calendars/${id}/appointment-types/checkup`, {
      as,
      body: { name: "Check-up", durationMinutes: 30 },
    })).status,
    200,
  );
  const windows = [0, 1, 2, 3, 4, 5, 6].map((weekday) =>
    allDay
      ? { weekday, opens: "00:00", closes: "24:00" }
      : { weekday, opens: "09:00", closes: "17:00" }
  );
  assert.equal(
    (await client.send("PUT", `/calendars/${id}/opening-hours`, { as, body: { windows } })).status,
    204,
  );
}

async function bookFor(client: Client, calendarId: string, patientId: string, startsAt: string) {
  const answer = await client.send("POST", "/appointments/", {
    as: callers.receptionist,
    body: { calendarId, appointmentTypeId: "checkup", startsAt, patientId },
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.id as string;
}

e2e(
  "a clearance: POST answers 202 with the job id, GET follows it to succeeded",
  async ({ client, application }) => {
    await openCalendar(client, "cal-1");
    const monday1 = await bookFor(client, "cal-1", "p1", monday("10:00"));
    const monday2 = await bookFor(client, "cal-1", "p2", monday("11:00"));
    const monday3 = await bookFor(client, "cal-1", "p3", monday("12:00"));
    const tuesday = await bookFor(client, "cal-1", "p4", "2026-03-03T10:00:00Z");

    const period = { from: monday("00:00"), until: "2026-03-03T00:00:00Z", reason: "closed" };
    const posted = await client.send("POST", "/calendars/cal-1/clearances", { as, body: period });
    assert.equal(posted.status, 202, JSON.stringify(posted.body));
    const clearance = posted.body.id as string;
    const path = `/calendars/cal-1/clearances/${clearance}`;
    assert.equal(
      posted.headers.get("location"),
      path,
      "Location is where the clearance is followed",
    );

    const waiting = await client.send("GET", path, { as });
    assert.equal(waiting.status, 200);
    assert.deepEqual(waiting.body, { status: "waiting", done: 0 });

    // The job is the one the spec names, with the calendar as its subject.
    const job = await application.backgroundJobs.find(clearance);
    assert.equal(job?.name, "scheduling.clear-calendar");
    assert.equal(job?.subject, "cal-1");

    assert.equal(await application.backgroundJobs.runDue(), 1);
    const done = await client.send("GET", path, { as });
    assert.deepEqual(done.body, { status: "succeeded", done: 3, total: 3 });

    for (const id of [monday1, monday2, monday3]) {
      const confirm = await client.send("POST", `/appointments/${id}/confirmation`, {
        as: callers.receptionist,
      });
      assert.equal(confirm.body.code, "APPOINTMENT_CANCELLED");
    }
    const kept = await client.send("POST", `/appointments/${tuesday}/confirmation`, {
      as: callers.receptionist,
    });
    assert.equal(kept.status, 201, "the appointment outside the period is kept");
  },
);

e2e(
  "UNKNOWN_CLEARANCE: no such job, another calendar's clearance, a job of another name",
  async ({ client, application }) => {
    await openCalendar(client, "cal-1");
    await openCalendar(client, "cal-2");
    const posted = await client.send("POST", "/calendars/cal-1/clearances", {
      as,
      body: { from: monday("00:00"), until: monday("23:00"), reason: "closed" },
    });
    const clearance = posted.body.id as string;
    for (
      const path of [
        `/calendars/cal-1/clearances/no-such-job`,
        `/calendars/cal-2/clearances/${clearance}`,
      ]
    ) {
      const answer = await client.send("GET", path, { as });
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.code, "UNKNOWN_CLEARANCE");
    }
    @Background()
    class SendReminder {
      static readonly jobName = "scheduling.send-reminder";
      run(_payload: { calendarId: string }, _execution: BackgroundJobExecution): Promise<void> {
        return Promise.resolve();
      }
    }
    const other = await application.backgroundJobs.enqueue(SendReminder, { calendarId: "cal-1" }, {
      subject: "cal-1",
    });
    const answer = await client.send("GET", `/calendars/cal-1/clearances/${other.id}`, { as });
    assert.equal(answer.body.code, "UNKNOWN_CLEARANCE");
  },
);

e2e(
  "a clearance is refused to a patient (permission), and for an unknown calendar",
  async ({ client }) => {
    await openCalendar(client, "cal-1");
    const body = { from: monday("00:00"), until: monday("23:00"), reason: "closed" };
    const patient = await client.send("POST", "/calendars/cal-1/clearances", {
      as: callers.patient,
      body,
    });
    assert.equal(patient.status, 403);
    assert.equal(patient.body.code, "FORBIDDEN");
    const unknown = await client.send("POST", "/calendars/nope/clearances", { as, body });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, "UNKNOWN_CALENDAR");
    const get = await client.send("GET", "/calendars/cal-1/clearances/x", { as: callers.patient });
    assert.equal(get.status, 403);
  },
);

const worker = fileURLToPath(new URL("../../apps/worker/main.ts", import.meta.url));
const day = 24 * 60 * 60_000;
// This test runs a real worker process on the real clock, so its dates are relative to today.
const realNow = new Date(Math.floor(Date.now() / 60_000) * 60_000);

e2e(
  "a worker killed mid-clearance: progress is seen in between, and the retry resumes from the checkpoint",
  async ({ client, application, db, clock }) => {
    await openCalendar(client, "cal-1", true);
    const tomorrow = Math.floor(realNow.getTime() / day) * day + day;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const startsAt = new Date(tomorrow + (10 * 60 + i * 30) * 60_000).toISOString();
      ids.push(await bookFor(client, "cal-1", `p${i}`, startsAt));
    }
    const posted = await client.send("POST", "/calendars/cal-1/clearances", {
      as,
      body: {
        from: new Date(tomorrow).toISOString(),
        until: new Date(tomorrow + day).toISOString(),
        reason: "flood",
      },
    });
    assert.equal(posted.status, 202);
    const path = `/calendars/cal-1/clearances/${posted.body.id}`;

    // Hold the third appointment's row: the worker cancels two, then waits on it.
    const holder = await db.sql.reserve();
    await holder`begin`;
    await holder`select 1 from scheduling.appointments where id = ${ids[2]!} for update`;

    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", worker],
      // The jobs are on the database (as in this spec's application), whatever REDIS_URL says.
      env: { DATABASE_URL: db.url, REDIS_URL: "" },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let output = "";
    while (!output.includes("worker started")) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`the worker exited before starting: ${output}`);
      output += value;
    }

    let seen: { status: string; done: number; total?: number } | undefined;
    for (let i = 0; i < 600 && seen?.done !== 2; i++) {
      seen = (await client.send("GET", path, { as })).body;
      if (seen?.done !== 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(seen, { status: "running", done: 2, total: 5 });

    child.kill("SIGKILL");
    await child.status;
    await lines.cancel().catch(() => {});
    await holder`rollback`;
    holder.release();

    // Undo the first cancellation by hand: a retry that started over would cancel it again.
    await db.sql`update scheduling.appointments set status = 'booked' where id = ${ids[0]!}`;

    // The dead worker's lease (1 minute) runs out; this process's worker takes the job again.
    clock.set(new Date(realNow.getTime() + 5 * 60_000));
    assert.equal(await application.backgroundJobs.runDue(), 1);
    assert.deepEqual((await client.send("GET", path, { as })).body, {
      status: "succeeded",
      done: 5,
      total: 5,
    });
    assert.equal((await application.backgroundJobs.find(posted.body.id))?.attempts, 2);
    const statuses = await db.sql`
      select id, status from scheduling.appointments order by starts_at`;
    assert.deepEqual(statuses.map((r) => r.status), [
      "booked", // resumed from the checkpoint: not cancelled a second time
      "cancelled",
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
  },
  { now: realNow.toISOString() },
);

e2e(
  "a clearance treats an appointment that ended meanwhile as done",
  async ({ client, application, clock }) => {
    await openCalendar(client, "cal-1");
    const early = await bookFor(client, "cal-1", "p1", monday("10:00"));
    const late = await bookFor(client, "cal-1", "p2", monday("15:00"));
    const posted = await client.send("POST", "/calendars/cal-1/clearances", {
      as,
      body: { from: monday("00:00"), until: monday("23:00"), reason: "closed" },
    });
    // The worker only gets to it at 11:00: the 10:00 appointment has ended, the 15:00 one has not.
    clock.set(new Date(monday("11:00")));
    assert.equal(await application.backgroundJobs.runDue(), 1);
    const done = await client.send("GET", `/calendars/cal-1/clearances/${posted.body.id}`, { as });
    assert.deepEqual(done.body, { status: "succeeded", done: 2, total: 2 });
    const confirmEarly = await client.send("POST", `/appointments/${early}/confirmation`, {
      as: callers.receptionist,
    });
    assert.equal(confirmEarly.body.code, "APPOINTMENT_ENDED", "the ended one was left as it was");
    const confirmLate = await client.send("POST", `/appointments/${late}/confirmation`, {
      as: callers.receptionist,
    });
    assert.equal(confirmLate.body.code, "APPOINTMENT_CANCELLED");
  },
);
