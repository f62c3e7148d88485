import { type Actor, AuthorizedQuery, type QueuedJobStatus, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/** Where a clearance stands: its job's status and progress. */
export interface GetClearanceResult {
  readonly status: QueuedJobStatus;
  /** Appointments handled so far (0 before any progress). */
  readonly done: number;
  /** How many the clearance covers, once known. */
  readonly total?: number;
}

/** Asks how a calendar's clearance is going. Needs 'calendar.clear' on the calendar. */
@Requires(schedulingPermissions["calendar.clear"], {
  resource: (q: GetClearance) => ({ type: "calendar", id: q.calendarId }),
})
export class GetClearance extends AuthorizedQuery<GetClearanceResult> {
  constructor(actor: Actor, readonly calendarId: string, readonly clearanceId: string) {
    super(actor);
  }
}
