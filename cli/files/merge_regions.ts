import { readRegion, updateRegion } from "./marker_regions.ts";

/**
 * The three sides of a conflicted file, as git keeps them during a merge: the common ancestor
 * (`:1:`, empty when both sides added the file), ours (`:2:`) and theirs (`:3:`).
 */
export interface ThreeSides {
  readonly base: string;
  readonly ours: string;
  readonly theirs: string;
}

/**
 * Merges a file whose sides differ only in what kit's generators own: the entries of its
 * `// kit:begin <region>` … `// kit:end` regions (sorted sets: an entry either side added is
 * kept, one either side removed goes) and, for a `<!-- kit:begin generated -->` region of
 * Markdown, nothing at all (`kit docs` rewrites it; ours is kept until then). The text outside the
 * regions merges as git would (one side unchanged: the other; both changed alike: either);
 * `mergeText` is asked when both changed it differently.
 *
 * Answers the merged text, or `undefined` when the text outside the regions does not merge.
 *
 * @example
 * ```ts
 * import { mergeRegions } from "./merge_regions.ts";
 * const side = (entries: string) => `x({\n  // kit:begin codes\n${entries}  // kit:end\n});\n`;
 * await mergeRegions(
 *   { base: side(""), ours: side("  A: 1,\n"), theirs: side("  B: 2,\n") },
 *   () => Promise.resolve(undefined),
 * );
 * // x({\n  // kit:begin codes\n  A: 1,\n  B: 2,\n  // kit:end\n});\n
 * ```
 */
export async function mergeRegions(
  sides: ThreeSides,
  mergeText: (sides: ThreeSides) => Promise<string | undefined>,
): Promise<string | undefined> {
  const skeletons = {
    base: skeleton(sides.base),
    ours: skeleton(sides.ours),
    theirs: skeleton(sides.theirs),
  };
  const merged = skeletons.ours === skeletons.theirs || skeletons.theirs === skeletons.base
    ? skeletons.ours
    : skeletons.ours === skeletons.base
    ? skeletons.theirs
    : await mergeText(skeletons);
  if (merged === undefined || /^(<{7}|={7}|>{7})( |$)/m.test(merged)) return undefined;
  let text = merged;
  for (const region of codeRegions(merged)) {
    const [base, ours, theirs] = [sides.base, sides.ours, sides.theirs].map((side) =>
      codeRegions(side).includes(region) ? readRegion(side, region, "merge") : []
    );
    const removed = new Set([
      ...base!.filter((e) => !ours!.includes(e)),
      ...base!.filter((e) => !theirs!.includes(e)),
    ]);
    const entries = [...ours!, ...theirs!].filter((entry) => !removed.has(entry));
    text = updateRegion(text, region, entries, "merge");
  }
  return markdownRegion(text, markdownBody(sides.ours));
}

const codeBegin = /^\s*\/\/ kit:begin (\S+)\s*$/;
const codeEnd = /^\s*\/\/ kit:end\s*$/;
const markdownBegin = "<!-- kit:begin generated -->";
const markdownEnd = "<!-- kit:end -->";

/** The names of a text's code regions, in order. */
function codeRegions(text: string): string[] {
  return text.split("\n").flatMap((line) => codeBegin.exec(line)?.[1] ?? []);
}

/** The text with every region's body emptied (markers kept): what the sides merge as text. */
function skeleton(text: string): string {
  const kept: string[] = [];
  let inside = false;
  for (const line of text.split("\n")) {
    if (inside && (codeEnd.test(line) || line.trim() === markdownEnd)) inside = false;
    if (!inside) kept.push(line);
    if (codeBegin.test(line) || line.trim() === markdownBegin) inside = true;
  }
  return kept.join("\n");
}

function markdownBody(text: string): string | undefined {
  const begin = text.indexOf(markdownBegin);
  const end = text.indexOf(markdownEnd, begin);
  return begin === -1 || end === -1 ? undefined : text.slice(begin + markdownBegin.length, end);
}

function markdownRegion(text: string, body: string | undefined): string {
  const begin = text.indexOf(markdownBegin);
  const end = text.indexOf(markdownEnd, begin);
  if (body === undefined || begin === -1 || end === -1) return text;
  return text.slice(0, begin + markdownBegin.length) + body + text.slice(end);
}
