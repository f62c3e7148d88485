import type { BackgroundJobExecution, CommandBus } from "@kit/kernel";
import { Background } from "@kit/jobs";
import { RemindPatient } from "../commands/remind-patient/remind-patient.command.ts";

/** The payload of SendReminder: JSON, dates as ISO text. */
export interface SendReminderPayload {
  readonly appointmentId: string;
  readonly patientId: string;
  readonly startsAt: string;
}

/**
 * Reminds a patient of an appointment, at the time their preferences ask (a delayed job). A job
 * runs at least once (again after its worker died, once the lease expired): RemindPatient keeps
 * an idempotency record, so a second run sends nothing (see docs/operations/idempotent-jobs.md).
 */
@Background({ maxAttempts: 3 })
export class SendReminder {
  static readonly jobName = "notifications.send-reminder";

  constructor(private readonly commands: CommandBus) {}

  async run(payload: SendReminderPayload, execution: BackgroundJobExecution): Promise<void> {
    await this.commands.execute(
      new RemindPatient(
        execution.actor,
        payload.appointmentId,
        payload.patientId,
        payload.startsAt,
      ),
    );
  }
}
