import { type Token, token } from "../composition/token.ts";

/** Makes ids for new elements. */
export interface IdGenerator {
  /** A new, unique id. */
  next(): string;
}

const hex: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * A UUID version 7 (RFC 9562): time-ordered, so ids sort by creation and index well.
 *
 * @example
 * ```ts
 * import { uuidv7 } from "@kit/kernel";
 * uuidv7().length; // 36
 * ```
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let ms = Math.floor(now);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  let out = "";
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out += "-";
    out += hex[bytes[i]!];
  }
  return out;
}

/** The default id generator: UUID v7 on the wall clock. */
export const uuidv7Ids: IdGenerator = { next: () => uuidv7() };

/** The token of the id generator. */
export const IdGenerator: Token<IdGenerator> = token<IdGenerator>("IdGenerator");
