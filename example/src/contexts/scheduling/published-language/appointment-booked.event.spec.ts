import assert from "node:assert/strict";
import { AppointmentBooked } from "./appointment-booked.event.ts";

Deno.test("AppointmentBooked is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await AppointmentBooked.create({
    appointmentId: "a1",
    calendarId: "cal-1",
    appointmentTypeId: "checkup",
    patientId: "p1",
    startsAt: "2026-03-02T10:00:00Z",
    endsAt: "2026-03-02T10:30:00Z",
  });
  assert.equal(event.type, "scheduling.appointment.booked");
  assert.equal(event.version, 1);
  await assert.rejects(
    () =>
      AppointmentBooked.create(
        {
          ...{
            appointmentId: "a1",
            calendarId: "cal-1",
            appointmentTypeId: "checkup",
            patientId: "p1",
            startsAt: "2026-03-02T10:00:00Z",
            endsAt: "2026-03-02T10:30:00Z",
          },
          startsAt: 1,
        } as never,
      ),
    /payload of event 'scheduling.appointment.booked' v1 is invalid/,
  );
});
