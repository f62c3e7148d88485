// Derived by kit from constructor parameter types. Regenerate, never merge by hand.
import { ClearCalendar } from "./application/background/clear-calendar.job.ts";
import { BookAppointmentHandler } from "./application/commands/book-appointment/book-appointment.handler.ts";
import { CancelAppointmentHandler } from "./application/commands/cancel-appointment/cancel-appointment.handler.ts";
import { ConfirmAppointmentHandler } from "./application/commands/confirm-appointment/confirm-appointment.handler.ts";
import { DefineAppointmentTypeHandler } from "./application/commands/define-appointment-type/define-appointment-type.handler.ts";
import { OpenCalendarHandler } from "./application/commands/open-calendar/open-calendar.handler.ts";
import { ReleaseUnconfirmedHandler } from "./application/commands/release-unconfirmed/release-unconfirmed.handler.ts";
import { RequestClearanceHandler } from "./application/commands/request-clearance/request-clearance.handler.ts";
import { RequestConfirmationHandler } from "./application/commands/request-confirmation/request-confirmation.handler.ts";
import { RescheduleAppointmentHandler } from "./application/commands/reschedule-appointment/reschedule-appointment.handler.ts";
import { WriteAppointmentNotesHandler } from "./application/commands/write-appointment-notes/write-appointment-notes.handler.ts";
import { AppointmentRepository } from "./application/ports/appointment-repository.ts";
import { AvailabilityGateway } from "./application/ports/availability-gateway.ts";
import { CalendarRepository } from "./application/ports/calendar-repository.ts";
import { AppointmentConfirmation } from "./application/processes/appointment-confirmation.process.ts";
import { CalendarExistsHandler } from "./application/queries/calendar-exists/calendar-exists.handler.ts";
import { GetAppointmentHandler } from "./application/queries/get-appointment/get-appointment.handler.ts";
import { GetCalendarHandler } from "./application/queries/get-calendar/get-calendar.handler.ts";
import { GetClearanceHandler } from "./application/queries/get-clearance/get-clearance.handler.ts";
import { ListAppointmentsHandler } from "./application/queries/list-appointments/list-appointments.handler.ts";
import { ListBookedAppointmentsHandler } from "./application/queries/list-booked-appointments/list-booked-appointments.handler.ts";
import { ListCalendarsHandler } from "./application/queries/list-calendars/list-calendars.handler.ts";
import { ListFreeSlotsHandler } from "./application/queries/list-free-slots/list-free-slots.handler.ts";
import { AppointmentSerializer } from "./presentation/http/appointment.serializer.ts";
import { BookAppointmentController } from "./presentation/http/book-appointment.controller.ts";
import { CancelAppointmentController } from "./presentation/http/cancel-appointment.controller.ts";
import { ConfirmAppointmentController } from "./presentation/http/confirm-appointment.controller.ts";
import { DefineAppointmentTypeController } from "./presentation/http/define-appointment-type.controller.ts";
import { GetAppointmentController } from "./presentation/http/get-appointment.controller.ts";
import { GetCalendarController } from "./presentation/http/get-calendar.controller.ts";
import { GetClearanceController } from "./presentation/http/get-clearance.controller.ts";
import { ListAppointmentsController } from "./presentation/http/list-appointments.controller.ts";
import { ListCalendarsController } from "./presentation/http/list-calendars.controller.ts";
import { ListFreeSlotsController } from "./presentation/http/list-free-slots.controller.ts";
import { RequestClearanceController } from "./presentation/http/request-clearance.controller.ts";
import { RescheduleAppointmentController } from "./presentation/http/reschedule-appointment.controller.ts";
import { WriteAppointmentNotesController } from "./presentation/http/write-appointment-notes.controller.ts";
import {
  Clock,
  CommandBus,
  type DependencyManifest,
  EventPublisher,
  IdGenerator,
  JobQueue,
  QueryBus,
} from "@kit/kernel";

/** The constructor dependencies of the scheduling context's classes. */
export const schedulingDependencies: DependencyManifest = new Map<
  abstract new (...args: never[]) => unknown,
  readonly unknown[]
>([
  [AppointmentConfirmation, [CommandBus]],
  [BookAppointmentController, [CommandBus]],
  [BookAppointmentHandler, [
    CalendarRepository,
    AppointmentRepository,
    AvailabilityGateway,
    EventPublisher,
    Clock,
    IdGenerator,
  ]],
  [CalendarExistsHandler, [CalendarRepository]],
  [CancelAppointmentController, [CommandBus]],
  [CancelAppointmentHandler, [AppointmentRepository, EventPublisher, Clock]],
  [ClearCalendar, [CommandBus]],
  [ConfirmAppointmentController, [CommandBus]],
  [ConfirmAppointmentHandler, [AppointmentRepository, EventPublisher, Clock]],
  [DefineAppointmentTypeController, [CommandBus]],
  [DefineAppointmentTypeHandler, [CalendarRepository]],
  [GetAppointmentController, [QueryBus, AppointmentSerializer]],
  [GetAppointmentHandler, [AppointmentRepository]],
  [GetCalendarController, [QueryBus]],
  [GetCalendarHandler, [CalendarRepository]],
  [GetClearanceController, [QueryBus]],
  [GetClearanceHandler, [JobQueue]],
  [ListAppointmentsController, [QueryBus, AppointmentSerializer]],
  [ListAppointmentsHandler, [AppointmentRepository]],
  [ListBookedAppointmentsHandler, [AppointmentRepository]],
  [ListCalendarsController, [QueryBus]],
  [ListCalendarsHandler, [CalendarRepository]],
  [ListFreeSlotsController, [QueryBus]],
  [ListFreeSlotsHandler, [CalendarRepository, AppointmentRepository, AvailabilityGateway, Clock]],
  [OpenCalendarHandler, [CalendarRepository, EventPublisher]],
  [ReleaseUnconfirmedHandler, [AppointmentRepository, EventPublisher, Clock]],
  [RequestClearanceController, [CommandBus]],
  [RequestClearanceHandler, [CalendarRepository, AppointmentRepository, JobQueue, EventPublisher]],
  [RequestConfirmationHandler, [AppointmentRepository, EventPublisher]],
  [RescheduleAppointmentController, [CommandBus]],
  [RescheduleAppointmentHandler, [
    CalendarRepository,
    AppointmentRepository,
    AvailabilityGateway,
    EventPublisher,
    Clock,
  ]],
  [WriteAppointmentNotesController, [CommandBus, AppointmentSerializer]],
  [WriteAppointmentNotesHandler, [AppointmentRepository]],
]) as DependencyManifest;
