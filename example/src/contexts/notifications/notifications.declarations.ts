// Derived by kit from the context's sources: every declared class. Regenerate, never merge by hand.
import type { AnyClass } from "@kit/kernel";
import { GetPreferences } from "./application/queries/get-preferences/get-preferences.query.ts";
import { GetPreferencesController } from "./presentation/http/get-preferences.controller.ts";
import { GetPreferencesHandler } from "./application/queries/get-preferences/get-preferences.handler.ts";
import { Notifications } from "./presentation/http/notifications.routes.ts";
import { PlanReminder } from "./application/commands/plan-reminder/plan-reminder.command.ts";
import { PlanReminderHandler } from "./application/commands/plan-reminder/plan-reminder.handler.ts";
import { RemindPatient } from "./application/commands/remind-patient/remind-patient.command.ts";
import { RemindPatientHandler } from "./application/commands/remind-patient/remind-patient.handler.ts";
import { SchedulingAppointmentBookedHandler } from "./application/reactions/scheduling-appointment-booked.handler.ts";
import { SchedulingAppointmentCancelledHandler } from "./application/reactions/scheduling-appointment-cancelled.handler.ts";
import { SchedulingAppointmentConfirmationRequestedHandler } from "./application/reactions/scheduling-appointment-confirmation-requested.handler.ts";
import { SchedulingAppointmentConfirmedHandler } from "./application/reactions/scheduling-appointment-confirmed.handler.ts";
import { SchedulingAppointmentRescheduledHandler } from "./application/reactions/scheduling-appointment-rescheduled.handler.ts";
import { SearchNotifications } from "./application/queries/search-notifications/search-notifications.query.ts";
import { SearchNotificationsController } from "./presentation/http/search-notifications.controller.ts";
import { SearchNotificationsHandler } from "./application/queries/search-notifications/search-notifications.handler.ts";
import { SendNotification } from "./application/commands/send-notification/send-notification.command.ts";
import { SendNotificationController } from "./presentation/http/send-notification.controller.ts";
import { SendNotificationHandler } from "./application/commands/send-notification/send-notification.handler.ts";
import { SendReminder } from "./application/background/send-reminder.job.ts";

/** The declared classes of the notifications context. */
export const notificationsDeclarations: readonly AnyClass[] = [
  GetPreferences,
  GetPreferencesController,
  GetPreferencesHandler,
  Notifications,
  PlanReminder,
  PlanReminderHandler,
  RemindPatient,
  RemindPatientHandler,
  SchedulingAppointmentBookedHandler,
  SchedulingAppointmentCancelledHandler,
  SchedulingAppointmentConfirmationRequestedHandler,
  SchedulingAppointmentConfirmedHandler,
  SchedulingAppointmentRescheduledHandler,
  SearchNotifications,
  SearchNotificationsController,
  SearchNotificationsHandler,
  SendNotification,
  SendNotificationController,
  SendNotificationHandler,
  SendReminder,
];
