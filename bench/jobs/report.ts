/**
 * The tables of the jobs side-by-side benchmark: one row per measure and implementation, its
 * figure, and its ratio to the reference row of its measure.
 */

/** One figure: a rate (jobs/s, higher is better) or a latency (ms, lower is better). */
export interface Figure {
  /** The measure, e.g. "process no-op jobs, concurrency 10". */
  readonly measure: string;
  /** Who was measured. */
  readonly who: string;
  /** The value, or why there is none. */
  readonly value: number | string;
  /** "jobs/s" or "ms". */
  readonly unit: "jobs/s" | "ms";
  /** A note printed after the figure (e.g. the samples a capped run took). */
  readonly note?: string;
  /** A limit row: what the database or broker does of the same work with nothing else. */
  readonly limit?: boolean;
  /** With more than one round: the least and most of the rounds (the value is their median). */
  readonly spread?: Spread;
}

/** The rounds of a figure: how many, and their least and most values. */
export interface Spread {
  /** The rounds measured. */
  readonly rounds: number;
  /** The least value of a round. */
  readonly min: number;
  /** The most value of a round. */
  readonly max: number;
}

/** The median of the rounds (the upper one of an even count) and their spread. */
export function summarize(values: readonly number[]): { median: number; spread: Spread } {
  if (values.length === 0) throw new RangeError("no value to summarize");
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    spread: { rounds: sorted.length, min: sorted[0]!, max: sorted.at(-1)! },
  };
}

/** A row a table must have: its measure and who. */
export interface ExpectedRow {
  /** The measure of the row. */
  readonly measure: string;
  /** Who the row measures. */
  readonly who: string;
}

/** The rows expected and not in the figures, as "measure / who". */
export function missingRows(
  figures: readonly Figure[],
  expected: readonly ExpectedRow[],
): string[] {
  const have = new Set(figures.map((f) => `${f.measure}\u0000${f.who}`));
  return expected.filter((row) => !have.has(`${row.measure}\u0000${row.who}`)).map((row) =>
    `${row.measure} / ${row.who}`
  );
}

/**
 * Throws when a row expected is missing from the figures: a table prints every row it promises
 * (a row that failed or was skipped is there, with why), so a reader never takes a table with rows
 * left out for a complete one.
 */
export function assertComplete(
  title: string,
  figures: readonly Figure[],
  expected: readonly ExpectedRow[],
): void {
  const missing = missingRows(figures, expected);
  if (missing.length > 0) {
    throw new Error(`${title}: ${missing.length} row(s) missing: ${missing.join("; ")}`);
  }
}

/** Two rows compared in the targets: kit's and a peer's. */
export type Pair = readonly [string, string];

/**
 * The pairs of rows of a measure whose medians are closer than `within` (1.2: less than 20 %
 * apart, either way), or whose figure is missing: those need more rounds before a ratio is read.
 */
export function closePairs(
  figures: readonly Figure[],
  measure: string,
  pairs: readonly Pair[],
  within = 1.2,
): Pair[] {
  return pairs.filter(([a, b]) => {
    const ratio = ratioOf(figures, measure, a, b);
    return ratio !== undefined && Math.max(ratio, 1 / ratio) < within;
  });
}

/**
 * The ratio of two rows of a measure: at their medians, and at the ends of their spreads (the
 * lowest a / the highest b, the highest a / the lowest b); undefined when either has no number,
 * or a round of either measured nothing (0).
 */
export function ratioRange(
  figures: readonly Figure[],
  measure: string,
  who: string,
  other: string,
): { low: number; median: number; high: number } | undefined {
  const a = figures.find((f) => f.measure === measure && f.who === who);
  const b = figures.find((f) => f.measure === measure && f.who === other);
  if (typeof a?.value !== "number" || typeof b?.value !== "number") return undefined;
  const [aMin, aMax] = [a.spread?.min ?? a.value, a.spread?.max ?? a.value];
  const [bMin, bMax] = [b.spread?.min ?? b.value, b.spread?.max ?? b.value];
  // A round of nothing (0 jobs/s) has no ratio to read.
  if (Math.min(aMin, bMin) <= 0) return undefined;
  return { low: aMin / bMax, median: a.value / b.value, high: aMax / bMin };
}

/**
 * A target's verdict: "met" when even the least favourable ends of the two rows' spreads meet it,
 * "NOT met" when even the most favourable ones miss it, else "within run-to-run spread" (the
 * median alone does not decide it). For a latency (`lowerIsBetter`) the ratio must be at most
 * the goal.
 */
export function verdict(
  range: { low: number; median: number; high: number },
  goal: number,
  lowerIsBetter = false,
): "met" | "NOT met" | "within run-to-run spread" {
  const [worst, best] = lowerIsBetter ? [range.high, range.low] : [range.low, range.high];
  const meets = (x: number) => lowerIsBetter ? x <= goal : x >= goal;
  if (meets(worst)) return "met";
  if (!meets(best)) return "NOT met";
  return "within run-to-run spread";
}

/**
 * Renders a markdown table; the first figure of each measure is its reference. When a measure has
 * a limit row that is not its reference, a "vs limit" column gives every row's ratio to it too.
 */
export function renderTable(title: string, figures: readonly Figure[]): string {
  const references = new Map<string, Figure>();
  const limits = new Map<string, Figure>();
  for (const figure of figures) {
    if (!references.has(figure.measure)) references.set(figure.measure, figure);
    if (figure.limit && !limits.has(figure.measure)) limits.set(figure.measure, figure);
  }
  const limitColumn = [...limits].some(([measure, limit]) => references.get(measure) !== limit);
  const lines = [
    `\n${title}`,
    "",
    `| measure | implementation | result | vs reference |${limitColumn ? " vs limit |" : ""}`,
    `| --- | --- | ---: | ---: |${limitColumn ? " ---: |" : ""}`,
  ];
  for (const figure of figures) {
    const reference = references.get(figure.measure)!;
    const isReference = reference === figure;
    const result = typeof figure.value === "string"
      ? figure.value
      : `${format(figure.value, figure.unit)} ${figure.unit}${details(figure)}`;
    const ratio = isReference ? "1.00x (reference)" : ratioText(figure, reference);
    const limit = limits.get(figure.measure);
    const vsLimit = limit === undefined ? "" : limit === figure ? "1.00x (limit)" : ratioText(
      figure,
      limit,
    );
    lines.push(
      `| ${figure.measure} | ${figure.who}${
        isReference ? " **(reference)**" : ""
      } | ${result} | ${ratio} |${limitColumn ? ` ${vsLimit || "n/a"} |` : ""}`,
    );
  }
  return lines.join("\n");
}

// The spread of a median of several rounds, then the note.
function details(figure: Figure): string {
  const parts = [
    ...(figure.spread !== undefined && figure.spread.rounds > 1
      ? [
        `median of ${figure.spread.rounds} rounds, ${format(figure.spread.min, figure.unit)}-${
          format(figure.spread.max, figure.unit)
        }`,
      ]
      : []),
    ...(figure.note ? [figure.note] : []),
  ];
  return parts.length === 0 ? "" : ` (${parts.join("; ")})`;
}

function ratioText(figure: Figure, other: Figure): string {
  return typeof figure.value === "number" && typeof other.value === "number"
    ? `${(figure.value / other.value).toFixed(2)}x`
    : "n/a";
}

/** The ratio of two figures of the same measure, as text, or "n/a". */
export function ratioOf(
  figures: readonly Figure[],
  measure: string,
  who: string,
  other: string,
): number | undefined {
  const a = figures.find((f) => f.measure === measure && f.who === who)?.value;
  const b = figures.find((f) => f.measure === measure && f.who === other)?.value;
  return typeof a === "number" && typeof b === "number" ? a / b : undefined;
}

function format(value: number, unit: string): string {
  if (unit === "ms") return value < 10 ? value.toFixed(2) : value.toFixed(0);
  return Math.round(value).toLocaleString("en-US");
}
