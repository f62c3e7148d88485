import { freeSlots, type Period, type SlotFacts } from "./free-slots.ts";
import { schedulingRefusals } from "./scheduling-refusals.ts";
import { defaultTimeZone, onLocalGrid, timeZoneNamed } from "./time-zone.ts";

/** The rules a calendar books by; every calendar starts with {@linkcode defaultBookingRules}. */
export interface BookingRules {
  /** Appointments start on this grid, counted from midnight in the calendar's zone (minutes). */
  readonly slotMinutes: number;
  /** The shortest notice a booking may give (minutes before the start). */
  readonly minimumNoticeMinutes: number;
  /** How far ahead a booking may be made (days). */
  readonly horizonDays: number;
  /** How many upcoming appointments one patient may hold on the calendar. */
  readonly patientLimit: number;
}

/** The rules of a new calendar: 15-minute grid, 2 hours' notice, 60 days ahead, 3 per patient. */
export const defaultBookingRules: BookingRules = {
  slotMinutes: 15,
  minimumNoticeMinutes: 120,
  horizonDays: 60,
  patientLimit: 3,
};

/** A kind of appointment a calendar offers, with its length. */
export interface AppointmentType {
  readonly id: string;
  readonly name: string;
  readonly durationMinutes: number;
}

/** What the calendar knows when it decides a booking, besides its own rules. */
export interface BookingFacts {
  /** The instant of the decision. */
  readonly now: Date;
  /** The patient the appointment is for. */
  readonly patientId: string;
  /** How many upcoming appointments the patient holds on this calendar. */
  readonly patientUpcoming: number;
}

/** A booking the calendar accepts: the appointment's period. */
export interface PlannedBooking {
  readonly appointmentType: AppointmentType;
  readonly startsAt: Date;
  readonly endsAt: Date;
}

const minute = 60_000;

/**
 * The Calendar aggregate: a practitioner's calendar in a practice (the tenant), its time zone (an
 * IANA name: its grid and its opening hours are wall-clock times there), the appointment types it
 * offers and the rules it books by. It decides whether a booking fits its rules; whether
 * the slot is free and the practice open are decided with the facts its handler gathers.
 */
export class Calendar {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly ownerId: string,
    readonly rules: BookingRules,
    private readonly types: Map<string, AppointmentType>,
    private zone: string,
  ) {}

  /** A new calendar owned by a practitioner, in a time zone (default UTC), with the default rules. */
  static open(
    id: string,
    ownerId: string,
    tenantId: string,
    timeZone: string = defaultTimeZone,
    rules: BookingRules = defaultBookingRules,
  ): Calendar {
    if (id.length === 0) throw new TypeError("A calendar needs an id");
    return new Calendar(id, tenantId, ownerId, rules, new Map(), zoneOf(timeZone));
  }

  /** A calendar as stored. */
  static restore(
    state: {
      id: string;
      tenantId: string;
      ownerId: string;
      rules: BookingRules;
      timeZone: string;
      appointmentTypes: readonly AppointmentType[];
    },
  ): Calendar {
    return new Calendar(
      state.id,
      state.tenantId,
      state.ownerId,
      state.rules,
      new Map(state.appointmentTypes.map((t) => [t.id, t])),
      state.timeZone,
    );
  }

  /** Its IANA time zone. */
  get timeZone(): string {
    return this.zone;
  }

  /** Moves it to another time zone; answers whether anything changed. */
  moveTo(timeZone: string): boolean {
    const zone = zoneOf(timeZone);
    if (zone === this.zone) return false;
    this.zone = zone;
    return true;
  }

  /** The appointment types offered, sorted by id. */
  get appointmentTypes(): readonly AppointmentType[] {
    return [...this.types.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Offers (or redefines) an appointment type. */
  defineAppointmentType(type: AppointmentType): void {
    if (!Number.isInteger(type.durationMinutes) || type.durationMinutes <= 0) {
      throw new RangeError("An appointment type lasts a whole, positive number of minutes");
    }
    this.types.set(type.id, type);
  }

  /**
   * Decides whether a booking fits the calendar's rules, in the order a patient would want to
   * hear them: the type, the grid, the notice, the horizon, the patient's limit.
   */
  planBooking(appointmentTypeId: string, startsAt: Date, facts: BookingFacts): PlannedBooking {
    const appointmentType = this.types.get(appointmentTypeId);
    if (appointmentType === undefined) {
      throw schedulingRefusals.unknownAppointmentType(this.id, appointmentTypeId);
    }
    const time = startsAt.getTime();
    if (!onLocalGrid(startsAt, this.zone, this.rules.slotMinutes)) {
      throw schedulingRefusals.offGrid(startsAt, this.rules.slotMinutes);
    }
    const earliest = new Date(facts.now.getTime() + this.rules.minimumNoticeMinutes * minute);
    if (time < earliest.getTime()) throw schedulingRefusals.bookingTooLate(startsAt, earliest);
    const latest = new Date(facts.now.getTime() + this.rules.horizonDays * 24 * 60 * minute);
    if (time > latest.getTime()) throw schedulingRefusals.bookingTooFar(startsAt, latest);
    if (facts.patientUpcoming >= this.rules.patientLimit) {
      throw schedulingRefusals.patientLimitReached(facts.patientId, this.rules.patientLimit);
    }
    return {
      appointmentType,
      startsAt,
      endsAt: new Date(time + appointmentType.durationMinutes * minute),
    };
  }

  /**
   * The free slots of an appointment type (see {@linkcode freeSlots}): the starts
   * {@linkcode planBooking} would accept now, whose period is open and not booked.
   */
  freeSlots(
    appointmentTypeId: string,
    facts: Omit<SlotFacts, "rules" | "timeZone" | "durationMinutes">,
  ): Period[] {
    const type = this.types.get(appointmentTypeId);
    if (type === undefined) {
      throw schedulingRefusals.unknownAppointmentType(this.id, appointmentTypeId);
    }
    return freeSlots({
      ...facts,
      rules: this.rules,
      timeZone: this.zone,
      durationMinutes: type.durationMinutes,
    });
  }
}

/** The canonical name of a zone; an unknown one is a programming error (requests are validated). */
function zoneOf(timeZone: string): string {
  const zone = timeZoneNamed(timeZone);
  if (zone === undefined) throw new RangeError(`Unknown time zone '${timeZone}'`);
  return zone;
}
