import { Handles, type IdGenerator } from "@kit/kernel";
import type { BookedAppointments } from "../../ports/booked-appointments.ts";
import type { OpeningHoursRepository } from "../../ports/opening-hours-repository.ts";
import { AddTimeOff } from "./add-time-off.command.ts";

/** Runs AddTimeOff, asking scheduling which appointments the period covers. */
@Handles(AddTimeOff)
export class AddTimeOffHandler {
  constructor(
    private readonly hours: OpeningHoursRepository,
    private readonly booked: BookedAppointments,
    private readonly ids: IdGenerator,
  ) {}

  async handle(command: AddTimeOff): Promise<{ id: string }> {
    const hours = await this.hours.get(command.calendarId);
    const id = this.ids.next();
    hours.addTimeOff(
      { id, startsAt: command.startsAt, endsAt: command.endsAt, reason: command.reason },
      await this.booked.between(
        command.actor,
        command.calendarId,
        command.startsAt,
        command.endsAt,
      ),
    );
    await this.hours.save(hours);
    return { id };
  }
}
