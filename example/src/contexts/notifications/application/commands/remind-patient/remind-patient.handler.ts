import { type Clock, Handles, type IdGenerator, requireTenant } from "@kit/kernel";
import { confirmationRequestedHoursBefore } from "../../../../scheduling/published-language/appointment-confirmation-requested.event.ts";
import { defaultPreferences, whenText } from "../../../domain/notification.ts";
import type { EmailSender } from "../../ports/email-sender.ts";
import type { NotificationStore } from "../../ports/notification-store.ts";
import { RemindPatient } from "./remind-patient.command.ts";

/**
 * Runs RemindPatient, safe to repeat (its job runs at least once: again after a worker died
 * holding it, once its lease expired). First, in the command's transaction, the idempotency
 * record (tenant, appointment, start); the in-app notification and the email go out only when
 * the record is new. A run that finds the record sends nothing; one running at the same time
 * waits on the record's key until the first commits, then finds it.
 *
 * The window that remains: the email is handed to the provider before the transaction commits.
 * If the process dies between the provider's acceptance and the commit, the record rolls back
 * and the next run sends again: at least once, never lost. The email's idempotency key (the
 * same on every run) lets a provider that deduplicates by key close that window. (Sending after
 * the commit instead would make it at most once: a crash there loses the email.)
 *
 * One message, not two: within the day before its start (scheduling's
 * `confirmationRequestedHoursBefore`), an appointment whose patient has not confirmed that start
 * gets no reminder (`sent: false`, nothing recorded), because scheduling's confirmation process
 * asks them to confirm it then, and that request names its time. A confirmed start, or a reminder
 * due earlier (a longer notice), is reminded as before.
 */
@Handles(RemindPatient)
export class RemindPatientHandler {
  constructor(
    private readonly notifications: NotificationStore,
    private readonly emails: EmailSender,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async handle(command: RemindPatient): Promise<{ sent: boolean }> {
    const now = this.clock.now();
    const { appointmentId, patientId, startsAt } = command;
    const askedToConfirm = Date.parse(startsAt) - now.getTime() <=
      confirmationRequestedHoursBefore * 3_600_000;
    if (askedToConfirm && !await this.notifications.isConfirmed(appointmentId, startsAt)) {
      return { sent: false };
    }
    if (!await this.notifications.recordReminderSent(appointmentId, startsAt, now)) {
      return { sent: false };
    }
    const title = "Appointment reminder";
    const body = `Reminder: your appointment is on ${whenText(startsAt)}.`;
    await this.notifications.add({
      id: this.ids.next(),
      recipientId: patientId,
      kind: "appointment-reminder",
      relatedId: appointmentId,
      title,
      body,
      createdAt: now,
    });
    const { email } = (await this.notifications.preferences(patientId)) ?? defaultPreferences;
    if (email) {
      await this.emails.send({
        recipientId: patientId,
        subject: title,
        text: body,
        idempotencyKey: `reminder:${requireTenant()}:${appointmentId}@${startsAt}`,
      });
    }
    return { sent: true };
  }
}
