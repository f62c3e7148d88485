import { Handles } from "@kit/kernel";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { DefineAppointmentType } from "./define-appointment-type.command.ts";

/** Runs DefineAppointmentType. */
@Handles(DefineAppointmentType)
export class DefineAppointmentTypeHandler {
  constructor(private readonly calendars: CalendarRepository) {}

  async handle(command: DefineAppointmentType): Promise<{ id: string }> {
    const calendar = await this.calendars.find(command.calendarId);
    if (calendar === undefined) throw schedulingRefusals.unknownCalendar(command.calendarId);
    const type = {
      id: command.appointmentTypeId,
      name: command.name,
      durationMinutes: command.durationMinutes,
    };
    calendar.defineAppointmentType(type);
    await this.calendars.saveAppointmentType(calendar, type);
    return { id: command.appointmentTypeId };
  }
}
