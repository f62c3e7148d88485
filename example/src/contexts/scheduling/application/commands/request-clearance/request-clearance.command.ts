import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/** What RequestClearance answers: the id of the clearance (its background job). */
export interface RequestClearanceResult {
  readonly clearanceId: string;
}

/**
 * Asks for a calendar's live appointments in [from, until) to be cancelled, later, by the
 * `scheduling.clear-calendar` job. Needs 'calendar.clear' on the calendar.
 */
@Requires(schedulingPermissions["calendar.clear"], {
  resource: (c: RequestClearance) => ({ type: "calendar", id: c.calendarId }),
})
export class RequestClearance extends AuthorizedCommand<RequestClearanceResult> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly from: Date,
    readonly until: Date,
    readonly reason: string,
  ) {
    super(actor);
  }
}
