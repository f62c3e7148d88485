// Derived by kit from the context's sources: every declared class. Regenerate, never merge by hand.
import type { AnyClass } from "@kit/kernel";
import { IdentityPersonRegisteredHandler } from "./application/reactions/identity-person-registered.handler.ts";
import { SchedulingAppointmentBookedHandler } from "./application/reactions/scheduling-appointment-booked.handler.ts";
import { SchedulingAppointmentCancelledHandler } from "./application/reactions/scheduling-appointment-cancelled.handler.ts";

/** The declared classes of the analytics context. */
export const analyticsDeclarations: readonly AnyClass[] = [
  IdentityPersonRegisteredHandler,
  SchedulingAppointmentBookedHandler,
  SchedulingAppointmentCancelledHandler,
];
