/**
 * The name of the lock that serialises the decisions over one calendar's time: a booking, a
 * move, time off and opening hours each take it (`lockFor`) before they read what they check, so
 * that a booking and a time off over the same slot never both commit. Scheduling and availability
 * take the same name, hence it is published.
 *
 * @example
 * ```ts ignore
 * await lockFor(calendarLock(requireTenant(), calendarId)); // "calendar:practice-1:cal-1"
 * ```
 */
export function calendarLock(tenantId: string, calendarId: string): string {
  return `calendar:${tenantId}:${calendarId}`;
}
