import { Handles } from "@kit/kernel";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import { type AppointmentView, appointmentView, visibleTo } from "../appointment-view.ts";
import { GetAppointment } from "./get-appointment.query.ts";

/**
 * Answers GetAppointment from the repository (which reads only the practices the work reaches);
 * a patient's request for another patient's appointment is answered as for a missing one, so
 * that its existence is not told.
 */
@Handles(GetAppointment)
export class GetAppointmentHandler {
  constructor(private readonly appointments: AppointmentRepository) {}

  async handle(query: GetAppointment): Promise<AppointmentView> {
    const appointment = await this.appointments.find(query.appointmentId);
    const state = appointment?.snapshot;
    if (state === undefined || !visibleTo(query.actor, state)) {
      throw schedulingRefusals.appointmentNotFound(query.appointmentId);
    }
    return appointmentView(state);
  }
}
