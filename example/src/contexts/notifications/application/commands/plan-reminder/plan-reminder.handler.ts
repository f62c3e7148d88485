import { type Clock, Handles, type JobQueue, lockFor, requireTenant } from "@kit/kernel";
import { defaultPreferences } from "../../../domain/notification.ts";
import { SendReminder } from "../../background/send-reminder.job.ts";
import type { NotificationStore } from "../../ports/notification-store.ts";
import { PlanReminder } from "./plan-reminder.command.ts";

/**
 * Runs PlanReminder: cancels the reminder planned before, and enqueues `notifications.send-reminder`
 * to run at start minus the patient's notice, in this unit of work (keyed by appointment and start,
 * so a redelivered event plans nothing twice). No reminder when that time has passed. It holds
 * the appointment's reminder lock while it reads and replaces the planned one, so two plans of one
 * appointment (a booking and a move delivered at once) never leave two reminders.
 */
@Handles(PlanReminder)
export class PlanReminderHandler {
  constructor(
    private readonly notifications: NotificationStore,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  async handle(command: PlanReminder): Promise<{ jobId?: string }> {
    await lockFor(`reminder:${requireTenant()}:${command.appointmentId}`);
    const planned = await this.notifications.reminderOf(command.appointmentId);
    if (planned !== undefined) await this.jobs.cancel(planned);
    if (command.startsAt === undefined) {
      await this.notifications.setReminder(command.appointmentId, undefined);
      return {};
    }
    const { reminderHoursBefore } = (await this.notifications.preferences(command.patientId)) ??
      defaultPreferences;
    const runAt = new Date(new Date(command.startsAt).getTime() - reminderHoursBefore * 3_600_000);
    if (runAt <= this.clock.now()) {
      await this.notifications.setReminder(command.appointmentId, undefined);
      return {};
    }
    const { id } = await this.jobs.enqueue(
      SendReminder,
      {
        appointmentId: command.appointmentId,
        patientId: command.patientId,
        startsAt: command.startsAt,
      },
      {
        runAt,
        idempotencyKey: `${command.appointmentId}@${command.startsAt}`,
        subject: command.appointmentId,
      },
    );
    await this.notifications.setReminder(command.appointmentId, id);
    return { jobId: id };
  }
}
