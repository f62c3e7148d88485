import { Handles, type JobQueue } from "@kit/kernel";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { ClearCalendar } from "../../background/clear-calendar.job.ts";
import { GetClearance, type GetClearanceResult } from "./get-clearance.query.ts";

/**
 * Answers GetClearance from the job queue: `UNKNOWN_CLEARANCE` when no job has that id, when it is
 * not a `scheduling.clear-calendar` job, or when its subject is another calendar (the queue
 * already hides another tenant's jobs).
 */
@Handles(GetClearance)
export class GetClearanceHandler {
  constructor(private readonly jobs: JobQueue) {}

  async handle(query: GetClearance): Promise<GetClearanceResult> {
    const job = await this.jobs.find(query.clearanceId);
    if (
      job === undefined || job.name !== ClearCalendar.jobName ||
      job.subject !== query.calendarId
    ) {
      throw schedulingRefusals.unknownClearance(query.clearanceId);
    }
    return {
      status: job.status,
      done: job.progress.done,
      ...(job.progress.total === undefined ? {} : { total: job.progress.total }),
    };
  }
}
