import { ConcurrentUpdateError, Handles } from "@kit/kernel";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import { type AppointmentView, appointmentView } from "../../queries/appointment-view.ts";
import { WriteAppointmentNotes } from "./write-appointment-notes.command.ts";

/**
 * Runs WriteAppointmentNotes: an appointment of another practice is not found; a writer who read
 * an older version than the stored one is refused, and the save itself expects the version it
 * loaded (a write racing this one cannot be undone by it).
 */
@Handles(WriteAppointmentNotes)
export class WriteAppointmentNotesHandler {
  constructor(private readonly appointments: AppointmentRepository) {}

  async handle(command: WriteAppointmentNotes): Promise<AppointmentView> {
    const appointment = await this.appointments.find(command.appointmentId);
    if (appointment === undefined) {
      throw schedulingRefusals.appointmentNotFound(command.appointmentId);
    }
    if (appointment.version !== command.version) {
      throw new ConcurrentUpdateError("appointment", command.appointmentId, {
        expectedVersion: command.version,
      });
    }
    if (appointment.writeNotes(command.notes)) await this.appointments.save(appointment);
    return appointmentView(appointment.snapshot);
  }
}
