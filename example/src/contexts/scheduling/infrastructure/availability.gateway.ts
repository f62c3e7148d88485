import type { Actor, QueryBus } from "@kit/kernel";
import { CheckAvailability } from "../../availability/published-language/check-availability.query.ts";
import { ListOpenPeriods } from "../../availability/published-language/list-open-periods.query.ts";
import type { AvailabilityGateway, OpenPeriod } from "../application/ports/availability-gateway.ts";

/** Asks availability through the query bus, in availability's published language. */
export class QueryBusAvailability implements AvailabilityGateway {
  constructor(private readonly queries: QueryBus) {}

  isOpen(
    actor: Actor,
    calendarId: string,
    startsAt: Date,
    endsAt: Date,
    timeZone: string,
  ): Promise<boolean> {
    return this.queries.execute(
      new CheckAvailability(actor, calendarId, startsAt, endsAt, timeZone),
    );
  }

  async openPeriods(
    actor: Actor,
    calendarId: string,
    from: Date,
    until: Date,
    timeZone: string,
  ): Promise<OpenPeriod[]> {
    const periods = await this.queries.execute(
      new ListOpenPeriods(actor, calendarId, from, until, timeZone),
    );
    return periods.map((p) => ({ startsAt: new Date(p.startsAt), endsAt: new Date(p.endsAt) }));
  }
}
