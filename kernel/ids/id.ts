import { type Token, token } from "../composition/token.ts";

/** Makes ids for new elements. */
export interface IdGenerator {
  /** A new, unique id. */
  next(): string;
}

const hex: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * A UUID version 7 (RFC 9562): time-ordered, so ids sort by creation and index well. Ids made in
 * the same millisecond by this process sort in the order they were made too: the 12 bits after
 * the time are a counter that starts at a random value in each millisecond (RFC 9562, method 1),
 * and a millisecond that runs out of it borrows the next.
 *
 * @example
 * ```ts
 * import { uuidv7 } from "@kit/kernel";
 * uuidv7().length; // 36
 * ```
 */
export function uuidv7(now: number = Date.now()): string {
  // Random bytes come from a pool refilled 4 KiB at a time: one call to the CSPRNG per 409 ids.
  if (poolOffset + 10 > pool.length) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const r = poolOffset;
  poolOffset += 10;
  let ms = Math.floor(now);
  let sequence: number;
  if (ms === lastMs || (ms < lastMs && lastMs - ms < 2 && lastSequence >= 0)) {
    // The same millisecond (or the one just borrowed): count on.
    ms = lastMs;
    sequence = lastSequence + 1;
    if (sequence > 0xfff) {
      ms = lastMs + 1;
      sequence = ((pool[r]! << 8) | pool[r + 1]!) & 0x3ff;
    }
  } else {
    // A new millisecond: start low enough that thousands more fit in it.
    sequence = ((pool[r]! << 8) | pool[r + 1]!) & 0x3ff;
  }
  lastMs = ms;
  lastSequence = sequence;
  let out = "";
  const time: number[] = [0, 0, 0, 0, 0, 0];
  for (let i = 5; i >= 0; i--) {
    time[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  for (let i = 0; i < 6; i++) {
    if (i === 4) out += "-";
    out += hex[time[i]!];
  }
  out += "-" + hex[0x70 | (sequence >> 8)] + hex[sequence & 0xff];
  out += "-" + hex[(pool[r + 2]! & 0x3f) | 0x80] + hex[pool[r + 3]!] + "-";
  for (let i = 4; i < 10; i++) out += hex[pool[r + i]!];
  return out;
}

let lastMs = -1;
let lastSequence = -1;
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

/** The default id generator: UUID v7 on the wall clock. */
export const uuidv7Ids: IdGenerator = { next: () => uuidv7() };

/** The token of the id generator. */
export const IdGenerator: Token<IdGenerator> = token<IdGenerator>("IdGenerator");
