import assert from "node:assert/strict";
import { isRefusal } from "@kit/kernel";
import { Calendar } from "./calendar.ts";

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
