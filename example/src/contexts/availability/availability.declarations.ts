// Derived by kit from the context's sources: every declared class. Regenerate, never merge by hand.
import type { AnyClass } from "@kit/kernel";
import { AddTimeOff } from "./application/commands/add-time-off/add-time-off.command.ts";
import { AddTimeOffController } from "./presentation/http/add-time-off.controller.ts";
import { AddTimeOffHandler } from "./application/commands/add-time-off/add-time-off.handler.ts";
import { CalendarAvailability } from "./presentation/http/availability.routes.ts";
import { CheckAvailabilityHandler } from "./application/queries/check-availability/check-availability.handler.ts";
import { ListOpenPeriodsHandler } from "./application/queries/list-open-periods/list-open-periods.handler.ts";
import { SetOpeningHours } from "./application/commands/set-opening-hours/set-opening-hours.command.ts";
import { SetOpeningHoursController } from "./presentation/http/set-opening-hours.controller.ts";
import { SetOpeningHoursHandler } from "./application/commands/set-opening-hours/set-opening-hours.handler.ts";

/** The declared classes of the availability context. */
export const availabilityDeclarations: readonly AnyClass[] = [
  AddTimeOff,
  AddTimeOffController,
  AddTimeOffHandler,
  CalendarAvailability,
  CheckAvailabilityHandler,
  ListOpenPeriodsHandler,
  SetOpeningHours,
  SetOpeningHoursController,
  SetOpeningHoursHandler,
];
