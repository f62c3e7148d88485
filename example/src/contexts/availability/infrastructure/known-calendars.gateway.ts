import type { Actor, QueryBus } from "@kit/kernel";
import { CalendarExists } from "../../scheduling/published-language/calendar-exists.query.ts";
import type { KnownCalendars } from "../application/ports/known-calendars.ts";

/** Asks scheduling through the query bus, in scheduling's published language. */
export class QueryBusKnownCalendars implements KnownCalendars {
  constructor(private readonly queries: QueryBus) {}

  exists(actor: Actor, calendarId: string): Promise<boolean> {
    return this.queries.execute(new CalendarExists(actor, calendarId));
  }
}
