import assert from "node:assert/strict";
import { AppointmentRescheduled } from "./appointment-rescheduled.event.ts";

Deno.test("AppointmentRescheduled is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await AppointmentRescheduled.create({
    appointmentId: "a1",
    calendarId: "cal-1",
    patientId: "p1",
    previousStartsAt: "2026-03-02T10:00:00Z",
    startsAt: "2026-03-02T11:00:00Z",
    endsAt: "2026-03-02T11:30:00Z",
  });
  assert.equal(event.type, "scheduling.appointment.rescheduled");
  assert.equal(event.version, 1);
  await assert.rejects(
    () =>
      AppointmentRescheduled.create(
        {
          ...{
            appointmentId: "a1",
            calendarId: "cal-1",
            patientId: "p1",
            previousStartsAt: "2026-03-02T10:00:00Z",
            startsAt: "2026-03-02T11:00:00Z",
            endsAt: "2026-03-02T11:30:00Z",
          },
          startsAt: 1,
        } as never,
      ),
    /payload of event 'scheduling.appointment.rescheduled' v1 is invalid/,
  );
});
