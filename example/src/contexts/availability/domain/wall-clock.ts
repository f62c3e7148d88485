/**
 * Wall-clock arithmetic in an IANA time zone (Temporal): opening hours are wall-clock times of the
 * calendar's zone, so their instants shift when its clocks change.
 */

/** The date (in the zone) of an instant. */
export function localDate(instant: Date, timeZone: string): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(instant.getTime())
    .toZonedDateTimeISO(timeZone).toPlainDate();
}

/**
 * The instant the zone's clocks show `minutes` after midnight of a date (1440: the next
 * midnight). A wall-clock time the clocks skip (they go forward) is read as the instant as long
 * after the change; one they show twice (they go back) as the earlier one.
 */
export function instantAt(date: Temporal.PlainDate, minutes: number, timeZone: string): Date {
  const wall = date.toPlainDateTime().add({ minutes });
  return new Date(
    wall.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds,
  );
}

/** The weekday of a date: 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(date: Temporal.PlainDate): number {
  return date.dayOfWeek % 7;
}
