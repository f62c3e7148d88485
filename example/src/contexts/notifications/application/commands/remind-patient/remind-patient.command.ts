import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/**
 * Reminds a patient of an appointment at a start (in the app, and by email when they like it),
 * once however many times it runs. Needs 'reminder.send'.
 */
@Requires(notificationsPermissions["reminder.send"], {
  resource: (c: RemindPatient) => ({ type: "appointment", id: c.appointmentId }),
})
export class RemindPatient extends AuthorizedCommand<{ sent: boolean }> {
  constructor(
    actor: Actor,
    readonly appointmentId: string,
    readonly patientId: string,
    readonly startsAt: string,
  ) {
    super(actor);
  }
}
