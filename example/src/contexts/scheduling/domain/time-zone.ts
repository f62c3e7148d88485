/** The zone of a calendar that names none. */
export const defaultTimeZone = "UTC";

const minute = 60_000;

/**
 * The IANA name of a time zone in its canonical case ("europe/paris" is "Europe/Paris"), or
 * undefined when the runtime knows no zone of that name; offsets ("+01:00") are not zones.
 */
export function timeZoneNamed(name: string): string | undefined {
  if (!/^[A-Za-z]/.test(name)) return undefined;
  try {
    return new Temporal.ZonedDateTime(0n, name).timeZoneId;
  } catch {
    return undefined;
  }
}

/** True when the instant's wall-clock time in the zone is on a grid of `slotMinutes` from midnight. */
export function onLocalGrid(instant: Date, timeZone: string, slotMinutes: number): boolean {
  const local = Temporal.Instant.fromEpochMilliseconds(instant.getTime())
    .toZonedDateTimeISO(timeZone);
  const subMinute = local.second !== 0 || local.millisecond !== 0 || local.microsecond !== 0 ||
    local.nanosecond !== 0;
  return !subMinute && (local.hour * 60 + local.minute) % slotMinutes === 0;
}

/**
 * Every instant of [from, until) whose wall-clock time in the zone is on the grid of
 * `slotMinutes` counted from the zone's midnight, in order. A wall-clock time skipped by a
 * daylight-saving change has no instant; one lived twice (the clocks go back) has two.
 */
export function localGridInstants(
  from: Date,
  until: Date,
  timeZone: string,
  slotMinutes: number,
): Date[] {
  const found = new Set<number>();
  const toLocal = (d: Date) =>
    Temporal.Instant.fromEpochMilliseconds(d.getTime()).toZonedDateTimeISO(timeZone);
  const last = toLocal(until).toPlainDate();
  for (let date = toLocal(from).toPlainDate(); Temporal.PlainDate.compare(date, last) <= 0;) {
    const midnight = date.toPlainDateTime();
    for (let offset = 0; offset < 24 * 60; offset += slotMinutes) {
      const wall = midnight.add({ minutes: offset });
      for (const disambiguation of ["earlier", "later"] as const) {
        const zoned = wall.toZonedDateTime(timeZone, { disambiguation });
        if (!zoned.toPlainDateTime().equals(wall)) continue;
        const time = zoned.epochMilliseconds;
        if (time >= from.getTime() && time < until.getTime()) found.add(time);
      }
    }
    date = date.add({ days: 1 });
  }
  return [...found].sort((a, b) => a - b).map((time) => new Date(time));
}

/** The instant `minutes` after another. */
export function plusMinutes(instant: Date, minutes: number): Date {
  return new Date(instant.getTime() + minutes * minute);
}
