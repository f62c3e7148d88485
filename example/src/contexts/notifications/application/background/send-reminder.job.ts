import type { BackgroundJobExecution, CommandBus } from "@kit/kernel";
import { Background } from "@kit/jobs";
import { whenText } from "../../domain/notification.ts";
import { SendNotification } from "../commands/send-notification/send-notification.command.ts";

/** The payload of SendReminder: JSON, dates as ISO text. */
export interface SendReminderPayload {
  readonly appointmentId: string;
  readonly patientId: string;
  readonly startsAt: string;
}

/** Reminds a patient of an appointment, at the time their preferences ask (a delayed job). */
@Background({ maxAttempts: 3 })
export class SendReminder {
  static readonly jobName = "notifications.send-reminder";

  constructor(private readonly commands: CommandBus) {}

  async run(payload: SendReminderPayload, execution: BackgroundJobExecution): Promise<void> {
    await this.commands.execute(
      new SendNotification(
        execution.actor,
        payload.patientId,
        "Appointment reminder",
        `Reminder: your appointment is on ${whenText(payload.startsAt)}.`,
        "appointment-reminder",
        payload.appointmentId,
      ),
    );
  }
}
