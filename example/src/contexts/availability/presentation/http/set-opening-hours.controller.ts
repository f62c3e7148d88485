import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { SetOpeningHours } from "../../application/commands/set-opening-hours/set-opening-hours.command.ts";
import { CalendarAvailability } from "./availability.routes.ts";
import { availabilityErrors } from "../../domain/availability-errors.ts";

const clock = z.string().regex(
  /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/,
  "HH:MM, on the calendar's wall clock (its time zone)",
);
const hoursBody = z.object({
  windows: z.array(
    z.object({ weekday: z.int().min(0).max(6), opens: clock, closes: clock }),
  ).max(50),
});

const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

const route = controllerRoute({
  group: CalendarAvailability,
  method: "PUT",
  path: "/opening-hours",
  permissions: [SetOpeningHours],
  summary: "Set the weekly opening hours",
  params: zodSchema(z.object({ calendarId: idSchema() })),
  body: zodSchema(hoursBody),
  response: { status: 204, description: "Set" },
  errors: [
    "FORBIDDEN",
    availabilityErrors.UNKNOWN_CALENDAR,
    availabilityErrors.INVALID_OPENING_HOURS,
  ],
});

/** PUT /calendars/:calendarId/opening-hours: the weekly windows the calendar takes bookings in (wall-clock times of its time zone). */
@Controller(route)
export class SetOpeningHoursController {
  constructor(private readonly commands: CommandBus) {}

  async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    await this.commands.execute(
      new SetOpeningHours(
        request.actor,
        request.params.calendarId,
        request.body.windows.map((w) => ({
          weekday: w.weekday,
          opensAt: minutes(w.opens),
          closesAt: minutes(w.closes),
        })),
      ),
    );
  }
}
