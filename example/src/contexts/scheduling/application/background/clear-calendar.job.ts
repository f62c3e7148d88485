import { type BackgroundJobExecution, type CommandBus, isRefusal } from "@kit/kernel";
import { Background } from "@kit/jobs";
import { z } from "zod";
import { CancelAppointment } from "../commands/cancel-appointment/cancel-appointment.command.ts";

/** The payload of ClearCalendar: JSON, dates as ISO text. */
export interface ClearCalendarPayload {
  readonly calendarId: string;
  readonly appointmentIds: readonly string[];
  readonly reason: string;
}

/** How far a clearance got: the index of the next appointment to cancel. */
const clearanceCheckpoint = z.object({ next: z.int().min(0) });

/**
 * Where a clearance resumes: its checkpoint read through its schema (the store hands back any
 * JSON); none, or one of another shape (written by another version), starts from the first
 * appointment again, which is safe since cancelling a cancelled appointment changes nothing.
 */
export function resumeAt(checkpoint: unknown, total: number): number {
  const read = clearanceCheckpoint.safeParse(checkpoint);
  return read.success ? Math.min(read.data.next, total) : 0;
}

/**
 * Cancels each appointment of a clearance through the bus, as the actor who asked for it (so the
 * permission holds for the job as for the request). An appointment that has ended meanwhile counts
 * as done. After each one it saves a checkpoint, so a retry (a killed worker, a lost lease)
 * resumes where the last attempt stopped instead of starting over.
 */
@Background({ timeout: "30m", lease: "1m" })
export class ClearCalendar {
  static readonly jobName = "scheduling.clear-calendar";

  constructor(private readonly commands: CommandBus) {}

  async run(payload: ClearCalendarPayload, execution: BackgroundJobExecution): Promise<void> {
    const total = payload.appointmentIds.length;
    const start = resumeAt(execution.checkpoint, total);
    await execution.reportProgress({ done: start, total });
    for (let i = start; i < total; i++) {
      execution.signal.throwIfAborted();
      try {
        await this.commands.execute(
          new CancelAppointment(execution.actor, payload.appointmentIds[i]!, payload.reason),
        );
      } catch (error) {
        if (!isRefusal(error, "APPOINTMENT_ENDED")) throw error;
      }
      await execution.saveCheckpoint({ next: i + 1 } satisfies z.input<typeof clearanceCheckpoint>);
      await execution.reportProgress({ done: i + 1, total });
    }
  }
}
