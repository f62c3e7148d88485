import { defineErrorCodes, type ErrorCode } from "@kit/kernel";

/** The error codes the jobs dashboard answers. */
export const jobsDashboardErrors: {
  readonly JOB_NOT_FOUND: ErrorCode<"JOB_NOT_FOUND">;
  readonly JOB_NOT_CANCELLABLE: ErrorCode<"JOB_NOT_CANCELLABLE">;
  readonly JOB_NOT_DEAD: ErrorCode<"JOB_NOT_DEAD">;
  readonly INVALID_CURSOR: ErrorCode<"INVALID_CURSOR">;
  readonly SCHEDULED_JOB_NOT_FOUND: ErrorCode<"SCHEDULED_JOB_NOT_FOUND">;
  readonly PROCESS_INSTANCE_NOT_FOUND: ErrorCode<"PROCESS_INSTANCE_NOT_FOUND">;
} = defineErrorCodes("jobs", {
  JOB_NOT_FOUND: { status: 404, description: "No job of that id the work reaches" },
  JOB_NOT_CANCELLABLE: { status: 409, description: "The job has finished: it cannot be cancelled" },
  JOB_NOT_DEAD: { status: 409, description: "The job is not dead: there is nothing to revive" },
  INVALID_CURSOR: { status: 400, description: "The cursor is not one a page of jobs answered" },
  SCHEDULED_JOB_NOT_FOUND: {
    status: 404,
    description: "No scheduled job of that name is declared in the application",
  },
  PROCESS_INSTANCE_NOT_FOUND: {
    status: 404,
    description: "No (active, to end it) process instance of that key the work reaches",
  },
});
