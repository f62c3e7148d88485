import { schedulingRefusals } from "./scheduling-refusals.ts";

/** The longest internal notes an appointment keeps. */
export const maxNotesLength = 2000;

/** Where an appointment stands. */
export type AppointmentStatus = "booked" | "confirmed" | "cancelled";

/** What an appointment holds (also its stored form). */
export interface AppointmentState {
  readonly id: string;
  readonly calendarId: string;
  /** The practice of its calendar. */
  readonly tenantId: string;
  readonly appointmentTypeId: string;
  readonly patientId: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly status: AppointmentStatus;
  readonly bookedBy: string;
  readonly cancellationReason?: string;
  /** The staff's internal notes on it (never shown to the patient). */
  readonly notes?: string;
  /**
   * The version it was loaded at (0 for a new booking): a save expects it, so that two commands
   * that loaded the same version cannot both save (`CONCURRENT_UPDATE` for the later one).
   */
  readonly version: number;
}

/**
 * The Appointment aggregate: a patient's appointment on a calendar. Once it has ended it can be
 * neither cancelled nor confirmed (`APPOINTMENT_ENDED`); cancelling a cancelled appointment
 * changes nothing, so a retried clearance is harmless. It carries the version it was loaded at:
 * its repository saves it only if no other work saved it since.
 */
export class Appointment {
  private constructor(private state: AppointmentState) {}

  /** A new booking (version 0: never saved). */
  static book(state: Omit<AppointmentState, "status" | "version">): Appointment {
    if (state.id.length === 0) throw new TypeError("An appointment needs an id");
    if (state.endsAt <= state.startsAt) throw new RangeError("An appointment ends after it starts");
    return new Appointment({ ...state, status: "booked", version: 0 });
  }

  /** An appointment as stored. */
  static restore(state: AppointmentState): Appointment {
    return new Appointment(state);
  }

  /** Its id. */
  get id(): string {
    return this.state.id;
  }

  /** What it holds now. */
  get snapshot(): AppointmentState {
    return this.state;
  }

  /** The version it was loaded (or last saved) at. */
  get version(): number {
    return this.state.version;
  }

  /** Records the version its repository saved it at. */
  saved(version: number): void {
    this.state = { ...this.state, version };
  }

  /** Cancels it; answers whether anything changed (false when it was cancelled already). */
  cancel(reason: string, now: Date): boolean {
    if (this.state.status === "cancelled") return false;
    if (this.state.endsAt <= now) throw schedulingRefusals.appointmentEnded(this.state.id);
    this.state = { ...this.state, status: "cancelled", cancellationReason: reason };
    return true;
  }

  /**
   * Moves it to another period (the calendar decided the new one fits); a moved appointment
   * awaits confirmation again. Answers the previous start.
   */
  reschedule(startsAt: Date, endsAt: Date, now: Date): Date {
    if (this.state.status === "cancelled") {
      throw schedulingRefusals.appointmentCancelled(this.state.id);
    }
    if (this.state.endsAt <= now) throw schedulingRefusals.appointmentEnded(this.state.id);
    const previous = this.state.startsAt;
    this.state = { ...this.state, startsAt, endsAt, status: "booked" };
    return previous;
  }

  /**
   * Writes the staff's internal notes, trimmed (at most {@linkcode maxNotesLength} characters);
   * empty text clears them. Any appointment takes notes, a cancelled or ended one too. Answers
   * whether they changed.
   */
  writeNotes(notes: string): boolean {
    const kept = notes.trim();
    if (kept.length > maxNotesLength) {
      throw new RangeError(`Notes hold at most ${maxNotesLength} characters, got ${kept.length}`);
    }
    if (kept === (this.state.notes ?? "")) return false;
    const { notes: _, ...rest } = this.state;
    this.state = kept === "" ? rest : { ...rest, notes: kept };
    return true;
  }

  /** Confirms it; answers whether anything changed (false when it was confirmed already). */
  confirm(now: Date): boolean {
    if (this.state.status === "cancelled") {
      throw schedulingRefusals.appointmentCancelled(this.state.id);
    }
    if (this.state.endsAt <= now) throw schedulingRefusals.appointmentEnded(this.state.id);
    if (this.state.status === "confirmed") return false;
    this.state = { ...this.state, status: "confirmed" };
    return true;
  }
}
