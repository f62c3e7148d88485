// Derived by kit from constructor parameter types. Regenerate, never merge by hand.
import { SchedulingAppointmentBookedHandler } from "./application/reactions/scheduling-appointment-booked.handler.ts";
import { SchedulingAppointmentCancelledHandler } from "./application/reactions/scheduling-appointment-cancelled.handler.ts";
import { SchedulingAppointmentConfirmedHandler } from "./application/reactions/scheduling-appointment-confirmed.handler.ts";
import { SchedulingAppointmentRescheduledHandler } from "./application/reactions/scheduling-appointment-rescheduled.handler.ts";
import { type DependencyManifest, ProcessedEvents } from "@kit/kernel";

/** The constructor dependencies of the notifications context's classes. */
export const notificationsDependencies: DependencyManifest = new Map<
  abstract new (...args: never[]) => unknown,
  readonly unknown[]
>([
  [SchedulingAppointmentBookedHandler, [ProcessedEvents]],
  [SchedulingAppointmentCancelledHandler, [ProcessedEvents]],
  [SchedulingAppointmentConfirmedHandler, [ProcessedEvents]],
  [SchedulingAppointmentRescheduledHandler, [ProcessedEvents]],
]) as DependencyManifest;
