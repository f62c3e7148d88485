// Derived by kit from the context's sources: every declared class. Regenerate, never merge by hand.
import type { AnyClass } from "@kit/kernel";
import { AppointmentConfirmation } from "./application/processes/appointment-confirmation.process.ts";
import { AppointmentSerializer } from "./presentation/http/appointment.serializer.ts";
import { Appointments } from "./presentation/http/appointments.routes.ts";
import { BookAppointment } from "./application/commands/book-appointment/book-appointment.command.ts";
import { BookAppointmentController } from "./presentation/http/book-appointment.controller.ts";
import { BookAppointmentHandler } from "./application/commands/book-appointment/book-appointment.handler.ts";
import { CalendarExistsHandler } from "./application/queries/calendar-exists/calendar-exists.handler.ts";
import { Calendars } from "./presentation/http/calendars.routes.ts";
import { CancelAppointment } from "./application/commands/cancel-appointment/cancel-appointment.command.ts";
import { CancelAppointmentController } from "./presentation/http/cancel-appointment.controller.ts";
import { CancelAppointmentHandler } from "./application/commands/cancel-appointment/cancel-appointment.handler.ts";
import { ClearCalendar } from "./application/background/clear-calendar.job.ts";
import { ConfirmAppointment } from "./application/commands/confirm-appointment/confirm-appointment.command.ts";
import { ConfirmAppointmentController } from "./presentation/http/confirm-appointment.controller.ts";
import { ConfirmAppointmentHandler } from "./application/commands/confirm-appointment/confirm-appointment.handler.ts";
import { DefineAppointmentType } from "./application/commands/define-appointment-type/define-appointment-type.command.ts";
import { DefineAppointmentTypeController } from "./presentation/http/define-appointment-type.controller.ts";
import { DefineAppointmentTypeHandler } from "./application/commands/define-appointment-type/define-appointment-type.handler.ts";
import { GetAppointment } from "./application/queries/get-appointment/get-appointment.query.ts";
import { GetAppointmentController } from "./presentation/http/get-appointment.controller.ts";
import { GetAppointmentHandler } from "./application/queries/get-appointment/get-appointment.handler.ts";
import { GetCalendar } from "./application/queries/get-calendar/get-calendar.query.ts";
import { GetCalendarController } from "./presentation/http/get-calendar.controller.ts";
import { GetCalendarHandler } from "./application/queries/get-calendar/get-calendar.handler.ts";
import { GetClearance } from "./application/queries/get-clearance/get-clearance.query.ts";
import { GetClearanceController } from "./presentation/http/get-clearance.controller.ts";
import { GetClearanceHandler } from "./application/queries/get-clearance/get-clearance.handler.ts";
import { ListAppointments } from "./application/queries/list-appointments/list-appointments.query.ts";
import { ListAppointmentsController } from "./presentation/http/list-appointments.controller.ts";
import { ListAppointmentsHandler } from "./application/queries/list-appointments/list-appointments.handler.ts";
import { ListBookedAppointmentsHandler } from "./application/queries/list-booked-appointments/list-booked-appointments.handler.ts";
import { ListCalendars } from "./application/queries/list-calendars/list-calendars.query.ts";
import { ListCalendarsController } from "./presentation/http/list-calendars.controller.ts";
import { ListCalendarsHandler } from "./application/queries/list-calendars/list-calendars.handler.ts";
import { ListFreeSlots } from "./application/queries/list-free-slots/list-free-slots.query.ts";
import { ListFreeSlotsController } from "./presentation/http/list-free-slots.controller.ts";
import { ListFreeSlotsHandler } from "./application/queries/list-free-slots/list-free-slots.handler.ts";
import { OpenCalendar } from "./application/commands/open-calendar/open-calendar.command.ts";
import { OpenCalendarHandler } from "./application/commands/open-calendar/open-calendar.handler.ts";
import { ReleaseUnconfirmed } from "./application/commands/release-unconfirmed/release-unconfirmed.command.ts";
import { ReleaseUnconfirmedHandler } from "./application/commands/release-unconfirmed/release-unconfirmed.handler.ts";
import { RequestClearance } from "./application/commands/request-clearance/request-clearance.command.ts";
import { RequestClearanceController } from "./presentation/http/request-clearance.controller.ts";
import { RequestClearanceHandler } from "./application/commands/request-clearance/request-clearance.handler.ts";
import { RequestConfirmation } from "./application/commands/request-confirmation/request-confirmation.command.ts";
import { RequestConfirmationHandler } from "./application/commands/request-confirmation/request-confirmation.handler.ts";
import { RescheduleAppointment } from "./application/commands/reschedule-appointment/reschedule-appointment.command.ts";
import { RescheduleAppointmentController } from "./presentation/http/reschedule-appointment.controller.ts";
import { RescheduleAppointmentHandler } from "./application/commands/reschedule-appointment/reschedule-appointment.handler.ts";
import { WriteAppointmentNotes } from "./application/commands/write-appointment-notes/write-appointment-notes.command.ts";
import { WriteAppointmentNotesController } from "./presentation/http/write-appointment-notes.controller.ts";
import { WriteAppointmentNotesHandler } from "./application/commands/write-appointment-notes/write-appointment-notes.handler.ts";

/** The declared classes of the scheduling context. */
export const schedulingDeclarations: readonly AnyClass[] = [
  AppointmentConfirmation,
  Appointments,
  AppointmentSerializer,
  BookAppointment,
  BookAppointmentController,
  BookAppointmentHandler,
  CalendarExistsHandler,
  Calendars,
  CancelAppointment,
  CancelAppointmentController,
  CancelAppointmentHandler,
  ClearCalendar,
  ConfirmAppointment,
  ConfirmAppointmentController,
  ConfirmAppointmentHandler,
  DefineAppointmentType,
  DefineAppointmentTypeController,
  DefineAppointmentTypeHandler,
  GetAppointment,
  GetAppointmentController,
  GetAppointmentHandler,
  GetCalendar,
  GetCalendarController,
  GetCalendarHandler,
  GetClearance,
  GetClearanceController,
  GetClearanceHandler,
  ListAppointments,
  ListAppointmentsController,
  ListAppointmentsHandler,
  ListBookedAppointmentsHandler,
  ListCalendars,
  ListCalendarsController,
  ListCalendarsHandler,
  ListFreeSlots,
  ListFreeSlotsController,
  ListFreeSlotsHandler,
  OpenCalendar,
  OpenCalendarHandler,
  ReleaseUnconfirmed,
  ReleaseUnconfirmedHandler,
  RequestClearance,
  RequestClearanceController,
  RequestClearanceHandler,
  RequestConfirmation,
  RequestConfirmationHandler,
  RescheduleAppointment,
  RescheduleAppointmentController,
  RescheduleAppointmentHandler,
  WriteAppointmentNotes,
  WriteAppointmentNotesController,
  WriteAppointmentNotesHandler,
];
