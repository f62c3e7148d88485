/**
 * Writes that never undo each other, over HTTP on PostgreSQL: racing commands on one appointment
 * apply one after another (an acknowledged change is never undone, one event per change), a
 * booking and a time off over one slot never both commit, and concurrent opening hours never
 * answer 5xx. Each race is run a number of times, on fresh elements.
 */
import assert from "node:assert/strict";
import type { RunningTestPlatform } from "../../src/platform/platform-test.module.ts";
import {
  type Answer,
  assertProblem,
  callers,
  type Client,
  e2e,
  openAllWeekCalendar,
} from "./e2e.ts";

const as = callers.receptionist;
const hour = 3_600_000;
// The application's clock: Monday 2 March 2026, 08:00 UTC; every trial is on later days.
const tuesday = Date.parse("2026-03-03T00:00:00Z");
const at = (time: number) => new Date(time).toISOString();

function book(client: Client, patientId: string, startsAt: string): Promise<Answer> {
  return client.send("POST", "/appointments/", {
    as,
    body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt, patientId },
  });
}

async function booked(client: Client, patientId: string, startsAt: string): Promise<string> {
  const answer = await book(client, patientId, startsAt);
  assert.equal(answer.status, 201, answer.text);
  return answer.body.id;
}

/** The appointment as stored, and how many events of each kind the outbox holds for it. */
async function stored(app: RunningTestPlatform, id: string) {
  const [row] = await app.db.sql`
    select status, starts_at, version from scheduling.appointments where id = ${id}`;
  const events = await app.db.sql`
    select type, count(*)::int as n from kit_outbox
    where payload->>'appointmentId' = ${id} group by type`;
  const count = (kind: string) =>
    events.find((e) => e.type === `scheduling.appointment.${kind}`)?.n ?? 0;
  return {
    status: row!.status as string,
    startsAt: (row!.starts_at as Date).toISOString(),
    version: row!.version as number,
    booked: count("booked"),
    cancelled: count("cancelled"),
    confirmed: count("confirmed"),
    rescheduled: count("rescheduled"),
  };
}

/** A refusal the race may meet: the appointment was cancelled first. Nothing else. */
function acknowledgedOrCancelled(answer: Answer, what: string): boolean {
  if (answer.status === 201) return true;
  assert.equal(assertProblem(answer, what), "APPOINTMENT_CANCELLED", what);
  return false;
}

e2e(
  "cancel, reschedule and confirm racing on one appointment: the acknowledged ones all apply, a cancellation is never undone, one event per change",
  async (app) => {
    const { client } = app;
    await openAllWeekCalendar(client, "cal-1", 30);
    for (let trial = 0; trial < 16; trial++) {
      const startsAt = at(tuesday + trial * 2 * hour);
      const movedTo = at(tuesday + trial * 2 * hour + hour);
      const id = await booked(client, `p-${trial}`, startsAt);
      const path = `/appointments/${id}`;
      const withCancel = trial % 4 !== 3;
      const [move, confirm, cancel] = await Promise.all([
        client.send("POST", `${path}/rescheduling`, { as, body: { startsAt: movedTo } }),
        client.send("POST", `${path}/confirmation`, { as }),
        withCancel
          ? client.send("POST", `${path}/cancellation`, { as, body: { reason: "race" } })
          : undefined,
      ]);
      const what = `trial ${trial}`;
      const moved = acknowledgedOrCancelled(move, `${what}: rescheduling`);
      const confirmed = acknowledgedOrCancelled(confirm, `${what}: confirmation`);
      const after = await stored(app, id);
      if (cancel !== undefined) {
        // Cancelling is always possible before the appointment ends: it is acknowledged, and
        // whatever raced with it, the appointment stays cancelled.
        assert.equal(cancel.status, 201, `${what}: cancellation ${cancel.text}`);
        assert.equal(after.status, "cancelled", what);
      } else {
        assert.ok(moved && confirmed, `${what}: nothing cancelled it`);
        assert.ok(["booked", "confirmed"].includes(after.status), what);
      }
      assert.equal(after.startsAt, moved ? movedTo : startsAt, `${what}: where it stands`);
      assert.deepEqual(
        [after.booked, after.cancelled, after.rescheduled, after.confirmed],
        [1, cancel === undefined ? 0 : 1, moved ? 1 : 0, confirmed ? 1 : 0],
        `${what}: one event per acknowledged change`,
      );
      assert.equal(after.version, 1 + after.cancelled + after.rescheduled + after.confirmed, what);
    }
  },
);

e2e(
  "three concurrent cancellations: all acknowledged, one change, one cancelled event",
  async (app) => {
    const { client } = app;
    await openAllWeekCalendar(client, "cal-1", 30);
    for (let trial = 0; trial < 12; trial++) {
      const id = await booked(client, `p-${trial}`, at(tuesday + trial * hour));
      const answers = await Promise.all(
        [1, 2, 3].map((n) =>
          client.send("POST", `/appointments/${id}/cancellation`, {
            as,
            body: { reason: `reason ${n}` },
          })
        ),
      );
      assert.deepEqual(answers.map((a) => a.status), [201, 201, 201], `trial ${trial}`);
      const after = await stored(app, id);
      assert.equal(after.status, "cancelled");
      assert.equal(after.cancelled, 1, `trial ${trial}: one cancelled event`);
      assert.equal(after.version, 2, `trial ${trial}: one change`);
    }
  },
);

e2e(
  "a booking and a time off over the same slot never both commit",
  async (app) => {
    const { client } = app;
    await openAllWeekCalendar(client, "cal-1", 30);
    const practitioner = callers.practitioner;
    for (let trial = 0; trial < 16; trial++) {
      const slot = tuesday + trial * hour;
      const [first, second, timeOff] = await Promise.all([
        book(client, `p-${trial}`, at(slot)),
        book(client, `q-${trial}`, at(slot + 15 * 60_000)),
        client.send("POST", "/calendars/cal-1/time-off", {
          as: practitioner,
          body: { startsAt: at(slot), endsAt: at(slot + hour), reason: "race" },
        }),
      ]);
      const what = `trial ${trial}`;
      const bookings = [first, second].filter((a) => a.status === 201).length;
      if (timeOff.status === 201) {
        assert.equal(bookings, 0, `${what}: a booking inside the time off`);
        for (const a of [first, second]) {
          assert.equal(assertProblem(a, what), "OUTSIDE_AVAILABILITY", what);
        }
      } else {
        assert.equal(assertProblem(timeOff, what), "TIME_OFF_OVER_APPOINTMENTS", what);
        // The two bookings overlap: exactly one of them holds the slot.
        assert.equal(bookings, 1, `${what}: ${first.text} ${second.text}`);
      }
    }
    const inside = await app.db.sql`
      select a.id from scheduling.appointments a
      join availability.time_off t on t.calendar_id = a.calendar_id and t.tenant_id = a.tenant_id
      where a.status <> 'cancelled' and a.starts_at < t.ends_at and t.starts_at < a.ends_at`;
    assert.deepEqual([...inside], [], "no live appointment lies in time off");
  },
);

e2e(
  "ten concurrent opening-hours writes never answer 5xx; the hours are one of them, whole",
  async (app) => {
    const { client } = app;
    await openAllWeekCalendar(client, "cal-1", 30);
    const practitioner = callers.practitioner;
    const variant = (n: number) =>
      [1, 2, 3, 4, 5].map((weekday) => ({
        weekday,
        opens: "08:00",
        closes: `${String(10 + n).padStart(2, "0")}:00`,
      }));
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          client.send("PUT", "/calendars/cal-1/opening-hours", {
            as: practitioner,
            body: { windows: variant(n) },
          })),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(10).fill(204),
        answers.map((a) => a.text).join(" "),
      );
      const rows = await app.db.sql`
        select weekday, opens_at, closes_at from availability.opening_windows
        where calendar_id = 'cal-1' order by weekday, opens_at`;
      const closes = new Set(rows.map((r) => r.closes_at));
      assert.equal(rows.length, 5, "one set of five windows");
      assert.equal(closes.size, 1, "the windows of one write, not a mix");
    }
  },
);
