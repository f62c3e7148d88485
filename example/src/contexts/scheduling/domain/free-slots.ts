import type { BookingRules } from "./calendar.ts";
import { localGridInstants, plusMinutes } from "./time-zone.ts";

/** A period of time: [startsAt, endsAt). */
export interface Period {
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/** What the free slots of a calendar are computed from. */
export interface SlotFacts {
  /** The first instant a slot may start at. */
  readonly from: Date;
  /** Slots start before this instant. */
  readonly until: Date;
  /** The instant of the question (the minimum notice and the horizon count from it). */
  readonly now: Date;
  readonly rules: BookingRules;
  /** The calendar's IANA time zone: the grid is counted from its midnight. */
  readonly timeZone: string;
  /** How long the appointment type lasts (minutes). */
  readonly durationMinutes: number;
  /** The periods the calendar is open in: a slot lies within one of them. */
  readonly open: readonly Period[];
  /** The live appointments: a slot overlaps none of them. */
  readonly booked: readonly Period[];
}

/**
 * The free slots, in order: every start of [from, until) on the calendar's grid (in its zone),
 * giving the minimum notice and within the horizon, whose period lies within one open period
 * and overlaps no live appointment. These are the starts a booking would be accepted at now
 * (save the patient's own limit of upcoming appointments).
 */
export function freeSlots(facts: SlotFacts): Period[] {
  const earliest = plusMinutes(facts.now, facts.rules.minimumNoticeMinutes);
  const latest = plusMinutes(facts.now, facts.rules.horizonDays * 24 * 60);
  const from = Math.max(facts.from.getTime(), earliest.getTime());
  // A start at the horizon itself is accepted: starts run up to one millisecond past it.
  const until = Math.min(facts.until.getTime(), latest.getTime() + 1);
  if (from >= until) return [];
  const starts = localGridInstants(
    new Date(from),
    new Date(until),
    facts.timeZone,
    facts.rules.slotMinutes,
  );
  const slots: Period[] = [];
  for (const startsAt of starts) {
    const endsAt = plusMinutes(startsAt, facts.durationMinutes);
    const open = facts.open.some((p) => p.startsAt <= startsAt && endsAt <= p.endsAt);
    const taken = facts.booked.some((b) => b.startsAt < endsAt && startsAt < b.endsAt);
    if (open && !taken) slots.push({ startsAt, endsAt });
  }
  return slots;
}
