// Derived by kit from constructor parameter types. Regenerate, never merge by hand.
import { Counters } from "./application/ports/counters.ts";
import { IdentityPersonRegisteredHandler } from "./application/reactions/identity-person-registered.handler.ts";
import { SchedulingAppointmentBookedHandler } from "./application/reactions/scheduling-appointment-booked.handler.ts";
import { SchedulingAppointmentCancelledHandler } from "./application/reactions/scheduling-appointment-cancelled.handler.ts";
import { type DependencyManifest, ProcessedEvents } from "@kit/kernel";

/** The constructor dependencies of the analytics context's classes. */
export const analyticsDependencies: DependencyManifest = new Map<
  abstract new (...args: never[]) => unknown,
  readonly unknown[]
>([
  [IdentityPersonRegisteredHandler, [ProcessedEvents, Counters]],
  [SchedulingAppointmentBookedHandler, [ProcessedEvents, Counters]],
  [SchedulingAppointmentCancelledHandler, [ProcessedEvents, Counters]],
]) as DependencyManifest;
