/**
 * The rounds of the HTTP side by side (issue #33): which kit / peer pairs are closer than 1.2x and
 * need more rounds, and each row's median round with its spread.
 */

/** Two rows compared in the targets: kit's and a peer's, by name. */
export type RowPair = readonly [string, string];

/** The rounds any pair closer than 1.2x is given, interleaved, before its ratio is read. */
export const closeRounds = 5;

/**
 * The pairs whose values are closer than `within` (1.2: less than 20 % apart, either way); a pair
 * with a value missing or not positive is left out.
 */
export function closeRowPairs(
  value: (name: string) => number | undefined,
  pairs: readonly RowPair[],
  within = 1.2,
): RowPair[] {
  return pairs.filter(([a, b]) => {
    const [x, y] = [value(a), value(b)];
    if (x === undefined || y === undefined || !(x > 0) || !(y > 0)) return false;
    return Math.max(x / y, y / x) < within;
  });
}

/** A row's rounds: the median one (the lower of an even count) and the least and most req/s. */
export function medianRound<T extends { readonly rps: number }>(
  runs: readonly T[],
): { median: T; min: number; max: number; rounds: number } {
  if (runs.length === 0) throw new RangeError("no round to take the median of");
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)]!,
    min: sorted[0]!.rps,
    max: sorted.at(-1)!.rps,
    rounds: sorted.length,
  };
}
