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
  // The 36 characters' codes written into a scratch array, then one string made of them: no
  // intermediate strings or arrays (an id is made for every unit of work).
  const c = chars;
  for (let i = 5; i >= 0; i--) {
    const byte = ms % 256;
    ms = Math.floor(ms / 256);
    const at = i < 4 ? i * 2 : i * 2 + 1;
    c[at] = hexCodes[byte * 2]!;
    c[at + 1] = hexCodes[byte * 2 + 1]!;
  }
  put(c, 14, 0x70 | (sequence >> 8));
  put(c, 16, sequence & 0xff);
  put(c, 19, (pool[r + 2]! & 0x3f) | 0x80);
  put(c, 21, pool[r + 3]!);
  for (let i = 4; i < 10; i++) put(c, 24 + (i - 4) * 2, pool[r + i]!);
  return String.fromCharCode.apply(null, c);
}

/** The two hex digits of `byte` at `at`. */
function put(c: number[], at: number, byte: number): void {
  c[at] = hexCodes[byte * 2]!;
  c[at + 1] = hexCodes[byte * 2 + 1]!;
}

/** The character codes of each byte's two hex digits, lower case. */
const hexCodes: Uint8Array = new TextEncoder().encode(hex.join(""));
/** An id's characters, the dashes in place (`xxxxxxxx-xxxx-7xxx-yxxx-xxxxxxxxxxxx`). */
const chars: number[] = Array.from("00000000-0000-0000-0000-000000000000", (d) => d.charCodeAt(0));

let lastMs = -1;
let lastSequence = -1;
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

/** The default id generator: UUID v7 on the wall clock. */
export const uuidv7Ids: IdGenerator = { next: () => uuidv7() };

/** The token of the id generator. */
export const IdGenerator: Token<IdGenerator> = token<IdGenerator>("IdGenerator");
