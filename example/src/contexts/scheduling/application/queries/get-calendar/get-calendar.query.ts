import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";
import type { CalendarView } from "../calendar-view.ts";

/** GetCalendar: one calendar of the practice; needs 'calendar.read'. */
@Requires(schedulingPermissions["calendar.read"], {
  resource: (q: GetCalendar) => ({ type: "calendar", id: q.calendarId }),
})
export class GetCalendar extends AuthorizedQuery<CalendarView> {
  constructor(actor: Actor, readonly calendarId: string) {
    super(actor);
  }
}
