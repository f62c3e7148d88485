// Derived by kit from constructor parameter types. Regenerate, never merge by hand.
import { AddTimeOffHandler } from "./application/commands/add-time-off/add-time-off.handler.ts";
import { SetOpeningHoursHandler } from "./application/commands/set-opening-hours/set-opening-hours.handler.ts";
import { BookedAppointments } from "./application/ports/booked-appointments.ts";
import { KnownCalendars } from "./application/ports/known-calendars.ts";
import { OpeningHoursRepository } from "./application/ports/opening-hours-repository.ts";
import { CheckAvailabilityHandler } from "./application/queries/check-availability/check-availability.handler.ts";
import { ListOpenPeriodsHandler } from "./application/queries/list-open-periods/list-open-periods.handler.ts";
import { AddTimeOffController } from "./presentation/http/add-time-off.controller.ts";
import { SetOpeningHoursController } from "./presentation/http/set-opening-hours.controller.ts";
import { CommandBus, type DependencyManifest, IdGenerator } from "@kit/kernel";

/** The constructor dependencies of the availability context's classes. */
export const availabilityDependencies: DependencyManifest = new Map<
  abstract new (...args: never[]) => unknown,
  readonly unknown[]
>([
  [AddTimeOffController, [CommandBus]],
  [AddTimeOffHandler, [OpeningHoursRepository, BookedAppointments, KnownCalendars, IdGenerator]],
  [CheckAvailabilityHandler, [OpeningHoursRepository]],
  [ListOpenPeriodsHandler, [OpeningHoursRepository]],
  [SetOpeningHoursController, [CommandBus]],
  [SetOpeningHoursHandler, [OpeningHoursRepository, KnownCalendars]],
]) as DependencyManifest;
