import { Handles } from "@kit/kernel";
import {
  type BookedAppointment,
  ListBookedAppointments,
} from "../../../published-language/list-booked-appointments.query.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";

/** Answers ListBookedAppointments from the appointments table. */
@Handles(ListBookedAppointments)
export class ListBookedAppointmentsHandler {
  constructor(private readonly appointments: AppointmentRepository) {}

  async handle(query: ListBookedAppointments): Promise<BookedAppointment[]> {
    const live = await this.appointments.liveBetween(query.calendarId, query.from, query.until);
    return live.map((a) => ({
      id: a.id,
      startsAt: a.startsAt.toISOString(),
      endsAt: a.endsAt.toISOString(),
    }));
  }
}
