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
      : `${format(figure.value, figure.unit)} ${figure.unit}${
        figure.note ? ` (${figure.note})` : ""
      }`;
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
