import assert from "node:assert/strict";
import { isRefusal } from "@kit/kernel";
import { Appointment, maxNotesLength } from "./appointment.ts";

function booked(): Appointment {
  return Appointment.book({
    id: "a1",
    calendarId: "cal-1",
    tenantId: "practice-1",
    appointmentTypeId: "checkup",
    patientId: "p1",
    startsAt: new Date("2026-03-02T10:00:00Z"),
    endsAt: new Date("2026-03-02T10:30:00Z"),
    bookedBy: "p1",
  });
}

Deno.test("an appointment is cancelled once; cancelling again changes nothing", () => {
  const a = booked();
  assert.equal(a.cancel("ill", new Date("2026-03-01T00:00:00Z")), true);
  assert.equal(a.snapshot.status, "cancelled");
  assert.equal(a.snapshot.cancellationReason, "ill");
  assert.equal(a.cancel("again", new Date("2026-03-01T00:00:00Z")), false);
  assert.equal(a.snapshot.cancellationReason, "ill");
});

Deno.test("an ended appointment is neither cancelled nor confirmed (APPOINTMENT_ENDED)", () => {
  const after = new Date("2026-03-02T10:30:00Z");
  assert.throws(() => booked().cancel("late", after), (e) => isRefusal(e, "APPOINTMENT_ENDED"));
  assert.throws(() => booked().confirm(after), (e) => isRefusal(e, "APPOINTMENT_ENDED"));
});

Deno.test("a cancelled appointment cannot be confirmed", () => {
  const a = booked();
  a.cancel("ill", new Date("2026-03-01T00:00:00Z"));
  assert.throws(
    () => a.confirm(new Date("2026-03-01T00:00:00Z")),
    (e) => isRefusal(e, "APPOINTMENT_CANCELLED"),
  );
});

Deno.test("a new booking is at version 0; a save records its version", () => {
  const a = booked();
  assert.equal(a.version, 0);
  a.saved(1);
  assert.equal(a.version, 1);
  assert.equal(a.snapshot.version, 1);
});

Deno.test("an appointment's notes are trimmed, bounded, cleared by empty text, and change nothing when the same", () => {
  const appointment = Appointment.restore({
    id: "a-1",
    calendarId: "cal-1",
    tenantId: "t1",
    appointmentTypeId: "checkup",
    patientId: "pat-1",
    startsAt: new Date("2026-03-02T10:00:00Z"),
    endsAt: new Date("2026-03-02T10:15:00Z"),
    status: "cancelled",
    bookedBy: "desk-1",
    version: 3,
  });
  assert.equal(appointment.writeNotes("  Call back.  "), true, "a cancelled appointment too");
  assert.equal(appointment.snapshot.notes, "Call back.");
  assert.equal(appointment.writeNotes("Call back."), false);
  assert.throws(() => appointment.writeNotes("x".repeat(maxNotesLength + 1)), RangeError);
  assert.equal(appointment.snapshot.notes, "Call back.", "a refused write changes nothing");
  assert.equal(appointment.writeNotes("   "), true);
  assert.ok(!("notes" in appointment.snapshot));
  assert.equal(appointment.writeNotes(""), false);
});
