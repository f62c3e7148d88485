import { availabilityErrors } from "./availability-errors.ts";
import { instantAt, localDate, weekdayOf } from "./wall-clock.ts";

/**
 * One opening window of a weekday, in minutes from midnight on the calendar's wall clock (its
 * time zone), `opens` < `closes` (1440 at most: the next midnight).
 */
export interface OpeningWindow {
  /** 0 = Sunday ... 6 = Saturday. */
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

/** A period the calendar is open in: [startsAt, endsAt). */
export interface OpenPeriod {
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/**
 * The OpeningHours aggregate: when a calendar takes appointments (weekly windows, wall-clock times
 * of the calendar's time zone, which its callers name) and its time off. It answers whether a
 * period is open and which periods are; it refuses time off over booked appointments.
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

  /**
   * True when [startsAt, endsAt) lies in one window of its day (the day and the window read on
   * the wall clock of `timeZone`) and overlaps no time off.
   */
  isOpen(startsAt: Date, endsAt: Date, timeZone: string): boolean {
    const date = localDate(startsAt, timeZone);
    const inWindow = this.windowsOf(date, timeZone).some((w) =>
      w.startsAt <= startsAt && endsAt <= w.endsAt
    );
    if (!inWindow) return false;
    return !this.timeOff.some((t) => t.startsAt < endsAt && startsAt < t.endsAt);
  }

  /**
   * The periods the calendar is open in that overlap [from, until), in order: each window of each
   * day (on the wall clock of `timeZone`) less the time off over it, not cut at `from` or
   * `until`. A period lies within one of them exactly when {@linkcode isOpen} says it is open.
   */
  openPeriods(from: Date, until: Date, timeZone: string): OpenPeriod[] {
    const periods: OpenPeriod[] = [];
    const last = localDate(until, timeZone);
    for (let date = localDate(from, timeZone); Temporal.PlainDate.compare(date, last) <= 0;) {
      for (const window of this.windowsOf(date, timeZone)) {
        for (const open of this.lessTimeOff(window)) {
          if (open.startsAt < until && from < open.endsAt) periods.push(open);
        }
      }
      date = date.add({ days: 1 });
    }
    return periods;
  }

  /** The windows of a date, as instants. */
  private windowsOf(date: Temporal.PlainDate, timeZone: string): OpenPeriod[] {
    const weekday = weekdayOf(date);
    return this.windows.filter((w) => w.weekday === weekday).map((w) => ({
      startsAt: instantAt(date, w.opensAt, timeZone),
      endsAt: instantAt(date, w.closesAt, timeZone),
    })).filter((w) => w.startsAt < w.endsAt);
  }

  /** A window less the time off over it: what remains, in order. */
  private lessTimeOff(window: OpenPeriod): OpenPeriod[] {
    let remaining: OpenPeriod[] = [window];
    for (const t of this.timeOff) {
      remaining = remaining.flatMap((p) => {
        if (!(t.startsAt < p.endsAt && p.startsAt < t.endsAt)) return [p];
        const parts: OpenPeriod[] = [];
        if (p.startsAt < t.startsAt) parts.push({ startsAt: p.startsAt, endsAt: t.startsAt });
        if (t.endsAt < p.endsAt) parts.push({ startsAt: t.endsAt, endsAt: p.endsAt });
        return parts;
      });
    }
    return remaining;
  }
}
