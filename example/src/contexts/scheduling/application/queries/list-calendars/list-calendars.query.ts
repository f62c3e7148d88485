import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";
import type { CalendarView } from "../calendar-view.ts";

/** What ListCalendars answers: the calendars of the practice, sorted by id. */
export interface ListCalendarsResult {
  readonly calendars: CalendarView[];
}

/** ListCalendars: the calendars of the practice the work runs for; needs 'calendar.read'. */
@Requires(schedulingPermissions["calendar.read"])
export class ListCalendars extends AuthorizedQuery<ListCalendarsResult> {
  constructor(actor: Actor) {
    super(actor);
  }
}
