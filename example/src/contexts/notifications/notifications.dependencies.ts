// Derived by kit from constructor parameter types. Regenerate, never merge by hand.
import { SendReminder } from "./application/background/send-reminder.job.ts";
import { PlanReminderHandler } from "./application/commands/plan-reminder/plan-reminder.handler.ts";
import { RemindPatientHandler } from "./application/commands/remind-patient/remind-patient.handler.ts";
import { SendNotificationHandler } from "./application/commands/send-notification/send-notification.handler.ts";
import { EmailSender } from "./application/ports/email-sender.ts";
import { NotificationStore } from "./application/ports/notification-store.ts";
import { GetPreferencesHandler } from "./application/queries/get-preferences/get-preferences.handler.ts";
import { SearchNotificationsHandler } from "./application/queries/search-notifications/search-notifications.handler.ts";
import { SchedulingAppointmentBookedHandler } from "./application/reactions/scheduling-appointment-booked.handler.ts";
import { SchedulingAppointmentCancelledHandler } from "./application/reactions/scheduling-appointment-cancelled.handler.ts";
import { SchedulingAppointmentConfirmationRequestedHandler } from "./application/reactions/scheduling-appointment-confirmation-requested.handler.ts";
import { SchedulingAppointmentConfirmedHandler } from "./application/reactions/scheduling-appointment-confirmed.handler.ts";
import { SchedulingAppointmentRescheduledHandler } from "./application/reactions/scheduling-appointment-rescheduled.handler.ts";
import { GetPreferencesController } from "./presentation/http/get-preferences.controller.ts";
import { SearchNotificationsController } from "./presentation/http/search-notifications.controller.ts";
import { SendNotificationController } from "./presentation/http/send-notification.controller.ts";
import {
  Clock,
  CommandBus,
  type DependencyManifest,
  IdGenerator,
  JobQueue,
  ProcessedEvents,
  QueryBus,
} from "@kit/kernel";

/** The constructor dependencies of the notifications context's classes. */
export const notificationsDependencies: DependencyManifest = new Map<
  abstract new (...args: never[]) => unknown,
  readonly unknown[]
>([
  [GetPreferencesController, [QueryBus]],
  [GetPreferencesHandler, [NotificationStore]],
  [PlanReminderHandler, [NotificationStore, JobQueue, Clock]],
  [RemindPatientHandler, [NotificationStore, EmailSender, IdGenerator, Clock]],
  [SchedulingAppointmentBookedHandler, [
    ProcessedEvents,
    NotificationStore,
    IdGenerator,
    Clock,
    CommandBus,
  ]],
  [SchedulingAppointmentCancelledHandler, [
    ProcessedEvents,
    NotificationStore,
    IdGenerator,
    Clock,
    CommandBus,
  ]],
  [SchedulingAppointmentConfirmationRequestedHandler, [
    ProcessedEvents,
    NotificationStore,
    IdGenerator,
    Clock,
  ]],
  [SchedulingAppointmentConfirmedHandler, [ProcessedEvents, NotificationStore, IdGenerator, Clock]],
  [SchedulingAppointmentRescheduledHandler, [
    ProcessedEvents,
    NotificationStore,
    IdGenerator,
    Clock,
    CommandBus,
  ]],
  [SearchNotificationsController, [QueryBus]],
  [SearchNotificationsHandler, [NotificationStore]],
  [SendNotificationController, [CommandBus]],
  [SendNotificationHandler, [NotificationStore, IdGenerator, Clock]],
  [SendReminder, [CommandBus]],
]) as DependencyManifest;
