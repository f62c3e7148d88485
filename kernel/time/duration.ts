/** A length of time: milliseconds, or text such as `'500ms'`, `'30s'`, `'1m'`, `'30m'`, `'2h'`, `'1d'`. */
export type Duration = number | `${number}${"ms" | "s" | "m" | "h" | "d"}`;

const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const pattern = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/**
 * Turns a {@linkcode Duration} into milliseconds.
 *
 * @example
 * ```ts
 * import { toMilliseconds } from "@kit/kernel/internal";
 * toMilliseconds("30m"); // 1_800_000
 * ```
 */
export function toMilliseconds(duration: Duration): number {
  if (typeof duration === "number") {
    if (!Number.isFinite(duration) || duration < 0) {
      throw new RangeError(
        `A duration must be a finite number of milliseconds >= 0, got ${duration}`,
      );
    }
    return duration;
  }
  const match = pattern.exec(String(duration).trim());
  if (match === null) {
    throw new RangeError(
      `Invalid duration '${
        String(duration)
      }': use milliseconds or a number followed by ms, s, m, h or d`,
    );
  }
  return Math.round(Number(match[1]) * units[match[2]!]!);
}
