import { Authenticated, RouteGroup } from "@kit/http";

/** The availability routes of a calendar (/calendars/:calendarId/...), for identified callers. */
@RouteGroup({
  prefix: "/calendars/:calendarId",
  tags: ["availability"],
  guards: [Authenticated],
})
export class CalendarAvailability {}
