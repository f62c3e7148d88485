/**
 * A patient learns nothing of another patient's appointment, over HTTP on PostgreSQL: every
 * action on it (read, cancel, confirm, reschedule, notes) answers exactly as on an id that does
 * not exist, and changes nothing.
 */
import assert from "node:assert/strict";
import { callers, e2e, openAllWeekCalendar } from "./e2e.ts";

// The application's clock: Monday 2 March 2026, 08:00 UTC.
const tuesday = (hhmm: string) => `2026-03-03T${hhmm}:00Z`;

e2e(
  "every action of a patient on another patient's appointment answers as on a missing one",
  async (app) => {
    const { client } = app;
    await openAllWeekCalendar(client, "cal-1");
    const booked = await client.send("POST", "/appointments/", {
      as: callers.patient,
      body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: tuesday("10:00") },
    });
    assert.equal(booked.status, 201, booked.text);
    const id: string = booked.body.id;
    const actions: [string, string, unknown][] = [
      ["GET", "", undefined],
      ["POST", "/cancellation", { reason: "not mine" }],
      ["POST", "/confirmation", undefined],
      ["POST", "/rescheduling", { startsAt: tuesday("11:00") }],
      ["PUT", "/notes", { notes: "seen", version: 1 }],
    ];
    for (const [method, suffix, body] of actions) {
      const send = (target: string) =>
        client.send(method, `/appointments/${target}${suffix}`, {
          as: callers.otherPatient,
          ...(body === undefined ? {} : { body }),
        });
      const theirs = await send(id);
      const missing = await send("no-such-appointment");
      const what = `${method} ${suffix || "(read)"}`;
      assert.equal(theirs.status, missing.status, `${what}: ${theirs.text} / ${missing.text}`);
      assert.equal(theirs.body.code, missing.body.code, what);
      assert.ok(theirs.status === 404 || theirs.status === 403, `${what}: ${theirs.status}`);
      if (suffix !== "/notes") {
        assert.equal(theirs.body.code, "APPOINTMENT_NOT_FOUND", what);
      }
    }
    const [row] = await app.db.sql`
      select status, starts_at, version from scheduling.appointments where id = ${id}`;
    assert.equal(row?.status, "booked");
    assert.equal(row?.version, 1, "nothing changed");
  },
);
