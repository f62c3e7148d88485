import { defineModule, type Module, QueryBus } from "@kit/kernel";
import { Database } from "../../platform/database/database.ts";
import { BookedAppointments } from "./application/ports/booked-appointments.ts";
import { KnownCalendars } from "./application/ports/known-calendars.ts";
import { OpeningHoursRepository } from "./application/ports/opening-hours-repository.ts";
import { availabilityDeclarations } from "./availability.declarations.ts";
import { availabilityDependencies } from "./availability.dependencies.ts";
import { PostgresOpeningHours } from "./infrastructure/postgres-opening-hours.ts";
import { QueryBusKnownCalendars } from "./infrastructure/known-calendars.gateway.ts";
import { QueryBusBookedAppointments } from "./infrastructure/scheduling.gateway.ts";

/** The module of the availability context: its declarations, and its ports bound to adapters. */
export const availabilityModule: Module = defineModule("availability", {
  declarations: availabilityDeclarations,
  dependencies: availabilityDependencies,
  providers: [
    {
      provide: OpeningHoursRepository,
      provider: { useClass: PostgresOpeningHours, deps: [Database] },
    },
    {
      provide: BookedAppointments,
      provider: { useClass: QueryBusBookedAppointments, deps: [QueryBus] },
    },
    {
      provide: KnownCalendars,
      provider: { useClass: QueryBusKnownCalendars, deps: [QueryBus] },
    },
  ],
});
