import { Authenticated, RouteGroup } from "@kit/http";

/** The routes under /calendars, for identified callers; permissions are the commands'. */
@RouteGroup({
  prefix: "/calendars",
  tags: ["calendars"],
  guards: [Authenticated],
})
export class Calendars {}
