import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/**
 * Plans the reminder of an appointment at the patient's preferred notice, replacing a planned one;
 * with no start (the appointment was cancelled) it only cancels the planned one. Needs
 * 'reminder.plan'.
 */
@Requires(notificationsPermissions["reminder.plan"], {
  resource: (c: PlanReminder) => ({ type: "appointment", id: c.appointmentId }),
})
export class PlanReminder extends AuthorizedCommand<{ jobId?: string }> {
  constructor(
    actor: Actor,
    readonly appointmentId: string,
    readonly patientId: string,
    readonly startsAt: string | undefined,
  ) {
    super(actor);
  }
}
