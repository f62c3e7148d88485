import assert from "node:assert/strict";
import { isRefusal } from "@kit/kernel";
import { Calendar, defaultBookingRules } from "./calendar.ts";

const now = new Date("2026-03-02T08:00:00Z");
function calendar(): Calendar {
  const c = Calendar.open("cal-1", "dr-who", "practice-1");
  c.defineAppointmentType({ id: "checkup", name: "Check-up", durationMinutes: 30 });
  return c;
}
const facts = { now, patientId: "p1", patientUpcoming: 0 };

function refusedWith(code: string, fn: () => unknown): void {
  assert.throws(fn, (error) => isRefusal(error, code));
}

Deno.test("a booking on the grid, with notice, within the horizon gets its period", () => {
  const planned = calendar().planBooking("checkup", new Date("2026-03-02T10:15:00Z"), facts);
  assert.equal(planned.endsAt.toISOString(), "2026-03-02T10:45:00.000Z");
  assert.equal(planned.appointmentType.name, "Check-up");
});

Deno.test("an unknown appointment type is refused first", () => {
  refusedWith(
    "UNKNOWN_APPOINTMENT_TYPE",
    () => calendar().planBooking("surgery", new Date("2026-03-02T10:07:00Z"), facts),
  );
});

Deno.test("a start off the 15-minute grid is refused", () => {
  refusedWith(
    "OFF_GRID",
    () => calendar().planBooking("checkup", new Date("2026-03-02T10:07:00Z"), facts),
  );
});

Deno.test("a start with less than two hours' notice is refused; exactly two hours is fine", () => {
  refusedWith(
    "BOOKING_TOO_LATE",
    () => calendar().planBooking("checkup", new Date("2026-03-02T09:45:00Z"), facts),
  );
  calendar().planBooking("checkup", new Date("2026-03-02T10:00:00Z"), facts);
});

Deno.test("a start beyond 60 days is refused; the last day is fine", () => {
  refusedWith(
    "BOOKING_TOO_FAR",
    () => calendar().planBooking("checkup", new Date("2026-05-01T08:15:00Z"), facts),
  );
  calendar().planBooking("checkup", new Date("2026-05-01T08:00:00Z"), facts);
});

Deno.test("a patient holding three upcoming appointments is refused a fourth", () => {
  refusedWith(
    "PATIENT_LIMIT_REACHED",
    () =>
      calendar().planBooking("checkup", new Date("2026-03-03T10:00:00Z"), {
        ...facts,
        patientUpcoming: 3,
      }),
  );
});

Deno.test("the grid is counted from midnight in the calendar's zone", () => {
  const hourly = Calendar.open("cal-1", "dr-who", "practice-1", "Asia/Kolkata", {
    ...defaultBookingRules,
    slotMinutes: 60,
  });
  hourly.defineAppointmentType({ id: "checkup", name: "Check-up", durationMinutes: 30 });
  // 11:00 in Kolkata (UTC+05:30) is 05:30Z: on its hourly grid; 06:00Z (11:30 there) is not.
  hourly.planBooking("checkup", new Date("2026-03-03T05:30:00Z"), facts);
  refusedWith(
    "OFF_GRID",
    () => hourly.planBooking("checkup", new Date("2026-03-03T06:00:00Z"), facts),
  );
});

Deno.test("a calendar is in UTC unless opened in a zone; an unknown zone is refused", () => {
  assert.equal(calendar().timeZone, "UTC");
  const paris = Calendar.open("cal-2", "dr-who", "practice-1", "europe/paris");
  assert.equal(paris.timeZone, "Europe/Paris");
  assert.equal(paris.moveTo("Europe/Paris"), false);
  assert.equal(paris.moveTo("Asia/Tokyo"), true);
  assert.equal(paris.timeZone, "Asia/Tokyo");
  assert.throws(() => Calendar.open("cal-3", "dr-who", "practice-1", "Mars/Olympus"), RangeError);
});

Deno.test("the free slots of an unknown appointment type are refused", () => {
  refusedWith("UNKNOWN_APPOINTMENT_TYPE", () =>
    calendar().freeSlots("surgery", {
      from: new Date("2026-03-03T00:00:00Z"),
      until: new Date("2026-03-04T00:00:00Z"),
      now,
      open: [],
      booked: [],
    }));
});

Deno.test("every free slot is a booking the calendar accepts; the starts between are refused", () => {
  const c = calendar();
  const day = { from: new Date("2026-03-02T00:00:00Z"), until: new Date("2026-03-03T00:00:00Z") };
  // Open around the clock: only the calendar's own rules decide.
  const open = [{ startsAt: day.from, endsAt: new Date("2026-03-04T00:00:00Z") }];
  const slots = c.freeSlots("checkup", { ...day, now, open, booked: [] });
  assert.equal(slots[0]!.startsAt.toISOString(), "2026-03-02T10:00:00.000Z", "two hours' notice");
  const listed = new Set(slots.map((s) => s.startsAt.getTime()));
  for (let t = day.from.getTime(); t < day.until.getTime(); t += 5 * 60_000) {
    let accepted = true;
    try {
      c.planBooking("checkup", new Date(t), facts);
    } catch {
      accepted = false;
    }
    assert.equal(listed.has(t), accepted, new Date(t).toISOString());
  }
});
