import { z } from "zod";

/** The earliest instant a request may name: 2000-01-01T00:00:00Z. */
export const earliestInstant: Date = new Date("2000-01-01T00:00:00Z");
/** The first instant a request may no longer name: 2101-01-01T00:00:00Z. */
export const instantsEnd: Date = new Date("2101-01-01T00:00:00Z");

/** Text the database can hold: no NUL character, no lone surrogate. */
function storable(text: string): boolean {
  return !text.includes("\u0000") && text.isWellFormed();
}

const storableMessage = "Text without NUL characters or unpaired surrogates";

/**
 * An identifier named by a request (a path parameter or a reference in a body): 1 to 100
 * characters the database can hold.
 */
export function idSchema(): z.ZodString {
  return z.string().min(1).max(100).refine(storable, storableMessage);
}

/** Free text of 1 to `max` characters the database can hold. */
export function textSchema(max: number): z.ZodString {
  return z.string().min(1).max(max).refine(storable, storableMessage);
}

/**
 * An ISO 8601 date-time with an offset, between 2000-01-01 and 2100-12-31 (UTC): later or
 * earlier instants are refused with a message naming the range, before they reach the database
 * (which cannot hold year 0 or year 10000).
 */
export function instantSchema(): z.ZodISODateTime {
  return z.iso.datetime({ offset: true, abort: true }).refine((text) => {
    const time = Date.parse(text);
    return time >= earliestInstant.getTime() && time < instantsEnd.getTime();
  }, "A date-time from 2000-01-01 to 2100-12-31 (UTC)").describe(
    "ISO 8601 with an offset, from 2000-01-01 to 2100-12-31 (UTC)",
  );
}
