import { Handles } from "@kit/kernel";
import { schedulingErrors } from "../../../domain/scheduling-errors.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import { appointmentView, readsThePractice } from "../appointment-view.ts";
import { type AppointmentPage, ListAppointments } from "./list-appointments.query.ts";

/** A cursor: the start (ms) and id of the last appointment of a page, as base64url JSON. */
function encodeCursor(startsAt: Date, id: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([startsAt.getTime(), id]));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function decodeCursor(cursor: string): { startsAt: Date; id: string } {
  try {
    const text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const [ms, id] = JSON.parse(new TextDecoder().decode(
      Uint8Array.from(text, (c) => c.charCodeAt(0)),
    ));
    if (Number.isSafeInteger(ms) && typeof id === "string") return { startsAt: new Date(ms), id };
  } catch {
    // refused below
  }
  throw schedulingErrors.INVALID_CURSOR.error("The cursor is not one this API gave");
}

/**
 * Answers ListAppointments from the repository (only the practices the work reaches): a patient
 * gets only their own appointments (none when `patientId` names another patient).
 */
@Handles(ListAppointments)
export class ListAppointmentsHandler {
  constructor(private readonly appointments: AppointmentRepository) {}

  async handle(query: ListAppointments): Promise<AppointmentPage> {
    const own = !readsThePractice(query.actor);
    if (own && ![undefined, query.actor.id].includes(query.filters.patientId)) return { items: [] };
    const filters = own ? { ...query.filters, patientId: query.actor.id } : query.filters;
    const found = await this.appointments.page(
      filters,
      query.limit + 1,
      query.after === undefined ? undefined : decodeCursor(query.after),
    );
    const items = found.slice(0, query.limit).map((a) => appointmentView(a.snapshot));
    const last = items.at(-1);
    return found.length > query.limit && last !== undefined
      ? { items, next: encodeCursor(last.startsAt, last.id) }
      : { items };
  }
}
