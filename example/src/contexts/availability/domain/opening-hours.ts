import { availabilityErrors } from "./availability-errors.ts";

/** One opening window of a weekday, in minutes from midnight UTC (`opens` < `closes`). */
export interface OpeningWindow {
  /** 0 = Sunday ... 6 = Saturday (as `Date.getUTCDay`). */
  readonly weekday: number;
  readonly opensAt: number;
  readonly closesAt: number;
}

/** A period the calendar is closed in, whatever its weekly hours say. */
export interface TimeOff {
  readonly id: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly reason: string;
}

const day = 24 * 60 * 60_000;

/**
 * The OpeningHours aggregate: when a calendar takes appointments (weekly windows, in UTC) and its
 * time off. It answers whether a period is open; it refuses time off over booked appointments.
 */
export class OpeningHours {
  private constructor(
    readonly calendarId: string,
    private windows: readonly OpeningWindow[],
    private readonly timeOff: TimeOff[],
  ) {}

  /** The hours of a calendar that has none yet: closed. */
  static none(calendarId: string): OpeningHours {
    return new OpeningHours(calendarId, [], []);
  }

  /** The hours as stored. */
  static restore(
    calendarId: string,
    windows: readonly OpeningWindow[],
    timeOff: readonly TimeOff[],
  ): OpeningHours {
    return new OpeningHours(calendarId, windows, [...timeOff]);
  }

  /** The weekly windows, sorted. */
  get weekly(): readonly OpeningWindow[] {
    return this.windows;
  }

  /** The time off, sorted by start. */
  get timesOff(): readonly TimeOff[] {
    return this.timeOff;
  }

  /** Replaces the weekly windows; overlapping or empty windows are refused. */
  setWeekly(windows: readonly OpeningWindow[]): void {
    const sorted = [...windows].sort((a, b) => a.weekday - b.weekday || a.opensAt - b.opensAt);
    for (const [i, w] of sorted.entries()) {
      if (w.opensAt >= w.closesAt) {
        throw availabilityErrors.INVALID_OPENING_HOURS.error(
          `A window of weekday ${w.weekday} closes before it opens`,
        );
      }
      const next = sorted[i + 1];
      if (next !== undefined && next.weekday === w.weekday && next.opensAt < w.closesAt) {
        throw availabilityErrors.INVALID_OPENING_HOURS.error(
          `Two windows of weekday ${w.weekday} overlap`,
        );
      }
    }
    this.windows = sorted;
  }

  /**
   * Adds time off, refused with `TIME_OFF_OVER_APPOINTMENTS` when live appointments fall in it
   * (cancel them first, or clear the calendar).
   */
  addTimeOff(timeOff: TimeOff, bookedInPeriod: readonly { id: string }[]): void {
    if (timeOff.endsAt <= timeOff.startsAt) {
      throw availabilityErrors.INVALID_TIME_OFF.error("Time off ends after it starts");
    }
    if (bookedInPeriod.length > 0) {
      throw availabilityErrors.TIME_OFF_OVER_APPOINTMENTS.error(
        `${bookedInPeriod.length} appointment(s) fall in this time off: cancel them first`,
        { appointmentIds: bookedInPeriod.map((a) => a.id) },
      );
    }
    this.timeOff.push(timeOff);
    this.timeOff.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  }

  /** True when [startsAt, endsAt) lies in one window of its day and overlaps no time off. */
  isOpen(startsAt: Date, endsAt: Date): boolean {
    const midnight = Math.floor(startsAt.getTime() / day) * day;
    const from = (startsAt.getTime() - midnight) / 60_000;
    const until = (endsAt.getTime() - midnight) / 60_000;
    const weekday = new Date(midnight).getUTCDay();
    const inWindow = this.windows.some((w) =>
      w.weekday === weekday && w.opensAt <= from && until <= w.closesAt
    );
    if (!inWindow) return false;
    return !this.timeOff.some((t) => t.startsAt < endsAt && startsAt < t.endsAt);
  }
}
