/**
 * What the PostgreSQL outbox tests book: the `Sql` token, the booked event and the command that
 * publishes it (and can be told to fail after publishing).
 *
 * @module
 */
import type postgres from "postgres";
import { z } from "zod";
import { type Actor, Command, defineIntegrationEvent, systemActor, token } from "../mod.ts";

/** The application's postgres.js client, as handlers receive it. */
export const Sql = token<postgres.Sql>("Sql");

/** Published by each booking. */
export const AppointmentBooked = defineIntegrationEvent({
  type: "scheduling.appointment.booked",
  version: 1,
  payload: z.object({ appointmentId: z.string() }),
});

/** Books one appointment, as `actor`; with `fail`, its handler throws after publishing. */
export class BookAppointment extends Command<void> {
  readonly fail: boolean;
  constructor(
    readonly appointmentId: string,
    options: { readonly actor?: Actor; readonly fail?: boolean } = {},
  ) {
    super(options.actor ?? systemActor);
    this.fail = options.fail ?? false;
  }
}
