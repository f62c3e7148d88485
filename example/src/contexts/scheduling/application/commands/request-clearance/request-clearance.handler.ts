import { type EventPublisher, Handles, type JobQueue } from "@kit/kernel";
import { schedulingErrors } from "../../../domain/scheduling-errors.ts";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { CalendarClearanceRequested } from "../../../published-language/calendar-clearance-requested.event.ts";
import { ClearCalendar } from "../../background/clear-calendar.job.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { RequestClearance, type RequestClearanceResult } from "./request-clearance.command.ts";

/**
 * Runs RequestClearance: keeps the live appointments the period covers and enqueues
 * `scheduling.clear-calendar` in this command's unit of work (a rollback leaves no job), with the
 * calendar as the job's subject.
 */
@Handles(RequestClearance)
export class RequestClearanceHandler {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly appointments: AppointmentRepository,
    private readonly jobs: JobQueue,
    private readonly events: EventPublisher,
  ) {}

  async handle(command: RequestClearance): Promise<RequestClearanceResult> {
    if (command.until <= command.from) {
      throw schedulingErrors.INVALID_PERIOD.error("A clearance period ends after it starts");
    }
    const calendar = await this.calendars.find(command.calendarId);
    if (calendar === undefined) throw schedulingRefusals.unknownCalendar(command.calendarId);
    const covered = await this.appointments.liveBetween(calendar.id, command.from, command.until);
    const appointmentIds = covered.map((a) => a.id);
    const { id } = await this.jobs.enqueue(
      ClearCalendar,
      { calendarId: calendar.id, appointmentIds, reason: command.reason },
      { subject: calendar.id },
    );
    await this.events.publish(CalendarClearanceRequested, {
      calendarId: calendar.id,
      clearanceId: id,
      appointmentIds,
      reason: command.reason,
    });
    return { clearanceId: id };
  }
}
