import { Handles } from "@kit/kernel";
import type { OpeningHoursRepository } from "../../ports/opening-hours-repository.ts";
import { SetOpeningHours } from "./set-opening-hours.command.ts";

/** Runs SetOpeningHours. */
@Handles(SetOpeningHours)
export class SetOpeningHoursHandler {
  constructor(private readonly hours: OpeningHoursRepository) {}

  async handle(command: SetOpeningHours): Promise<void> {
    const hours = await this.hours.get(command.calendarId);
    hours.setWeekly(command.windows);
    await this.hours.save(hours);
  }
}
