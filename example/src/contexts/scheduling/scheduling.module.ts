import { defineModule, type Module, QueryBus } from "@kit/kernel";
import { Database } from "../../platform/database/database.ts";
import { AppointmentRepository } from "./application/ports/appointment-repository.ts";
import { AvailabilityGateway } from "./application/ports/availability-gateway.ts";
import { CalendarRepository } from "./application/ports/calendar-repository.ts";
import { QueryBusAvailability } from "./infrastructure/availability.gateway.ts";
import { PostgresAppointments } from "./infrastructure/postgres-appointments.ts";
import { PostgresCalendars } from "./infrastructure/postgres-calendars.ts";
import { schedulingDeclarations } from "./scheduling.declarations.ts";
import { schedulingDependencies } from "./scheduling.dependencies.ts";

/** The module of the scheduling context: its declarations, and its ports bound to adapters. */
export const schedulingModule: Module = defineModule("scheduling", {
  declarations: schedulingDeclarations,
  dependencies: schedulingDependencies,
  providers: [
    {
      provide: CalendarRepository,
      provider: { useClass: PostgresCalendars, deps: [Database] },
    },
    {
      provide: AppointmentRepository,
      provider: { useClass: PostgresAppointments, deps: [Database] },
    },
    {
      provide: AvailabilityGateway,
      provider: { useClass: QueryBusAvailability, deps: [QueryBus] },
    },
  ],
});
