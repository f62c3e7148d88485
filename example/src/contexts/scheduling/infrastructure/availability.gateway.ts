import type { Actor, QueryBus } from "@kit/kernel";
import { CheckAvailability } from "../../availability/published-language/check-availability.query.ts";
import type { AvailabilityGateway } from "../application/ports/availability-gateway.ts";

/** Asks availability through the query bus, in availability's published language. */
export class QueryBusAvailability implements AvailabilityGateway {
  constructor(private readonly queries: QueryBus) {}

  isOpen(actor: Actor, calendarId: string, startsAt: Date, endsAt: Date): Promise<boolean> {
    return this.queries.execute(new CheckAvailability(actor, calendarId, startsAt, endsAt));
  }
}
