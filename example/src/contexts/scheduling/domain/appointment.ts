import { schedulingRefusals } from "./scheduling-refusals.ts";

/** Where an appointment stands. */
export type AppointmentStatus = "booked" | "confirmed" | "cancelled";

/** What an appointment holds (also its stored form). */
export interface AppointmentState {
  readonly id: string;
  readonly calendarId: string;
  readonly tenantId?: string;
  readonly appointmentTypeId: string;
  readonly patientId: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly status: AppointmentStatus;
  readonly bookedBy: string;
  readonly cancellationReason?: string;
}

/**
 * The Appointment aggregate: a patient's appointment on a calendar. Once it has ended it can be
 * neither cancelled nor confirmed (`APPOINTMENT_ENDED`); cancelling a cancelled appointment
 * changes nothing, so a retried clearance is harmless.
 */
export class Appointment {
  private constructor(private state: AppointmentState) {}

  /** A new booking. */
  static book(state: Omit<AppointmentState, "status">): Appointment {
    if (state.id.length === 0) throw new TypeError("An appointment needs an id");
    if (state.endsAt <= state.startsAt) throw new RangeError("An appointment ends after it starts");
    return new Appointment({ ...state, status: "booked" });
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
