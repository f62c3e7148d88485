import { type Actor, hasRole } from "@kit/kernel";
import type { AppointmentState } from "../../domain/appointment.ts";

/** An appointment as its readers see it (instants as instants: the serializer writes them). */
export type AppointmentView = Omit<AppointmentState, "tenantId">;

/** The view of an appointment's state. */
export function appointmentView(state: AppointmentState): AppointmentView {
  const { tenantId: _, ...view } = state;
  return view;
}

/**
 * Whether the actor reads every appointment of the practice (the front desk, practitioners, the
 * system) or only their own (a patient).
 */
export function readsThePractice(actor: Actor): boolean {
  return actor.kind !== "user" || hasRole(actor, "receptionist", "practitioner");
}

/**
 * Whether the actor may see the appointment at all: the practice's readers every one, a patient
 * their own. Every action on one the actor cannot see is refused as on a missing one
 * (`APPOINTMENT_NOT_FOUND`), so that no answer tells it exists.
 */
export function visibleTo(actor: Actor, state: AppointmentState): boolean {
  return readsThePractice(actor) || state.patientId === actor.id;
}
