import type { Actor, QueryBus } from "@kit/kernel";
import { ListBookedAppointments } from "../../scheduling/published-language/list-booked-appointments.query.ts";
import type { BookedAppointments } from "../application/ports/booked-appointments.ts";

/** Asks scheduling through the query bus, in scheduling's published language. */
export class QueryBusBookedAppointments implements BookedAppointments {
  constructor(private readonly queries: QueryBus) {}

  async between(
    actor: Actor,
    calendarId: string,
    from: Date,
    until: Date,
  ): Promise<{ id: string }[]> {
    const booked = await this.queries.execute(
      new ListBookedAppointments(actor, calendarId, from, until),
    );
    return booked.map((a) => ({ id: a.id }));
  }
}
