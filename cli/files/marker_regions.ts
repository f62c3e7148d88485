import { CliError } from "../cli_error.ts";

/**
 * Replaces the lines between `// kit:begin <region>` and `// kit:end` with the region's entries,
 * sorted and without duplicates, keeping the markers' indentation. Text outside the markers is
 * never touched, so two generators run in either order give the same bytes.
 *
 * @example
 * ```ts
 * import { updateRegion } from "./marker_regions.ts";
 * updateRegion("// kit:begin modules\n// kit:end\n", "modules", ["b", "a"], "file.ts");
 * // "// kit:begin modules\na\nb\n// kit:end\n"
 * ```
 */
export function updateRegion(
  text: string,
  region: string,
  entries: readonly string[],
  file: string,
): string {
  const lines = text.split("\n");
  const begin = lines.findIndex((line) => line.trim() === `// kit:begin ${region}`);
  if (begin === -1) throw new CliError(`'${file}' has no '// kit:begin ${region}' marker`);
  const end = lines.findIndex((line, i) => i > begin && line.trim() === "// kit:end");
  if (end === -1) throw new CliError(`'${file}' has no '// kit:end' after region '${region}'`);
  const indent = lines[begin]!.slice(0, lines[begin]!.indexOf("//"));
  const body = [...new Set(entries.map(canonicalEntry))].sort().map((entry) => indent + entry);
  return [...lines.slice(0, begin + 1), ...body, ...lines.slice(end)].join("\n");
}

/**
 * The entries between a region's markers, one per entry: an entry the formatter wrapped over
 * several lines (brackets left open at the end of a line) is joined back into one line, in the
 * canonical form `updateRegion` writes, so that reading, adding and sorting never splits it.
 */
export function readRegion(text: string, region: string, file: string): string[] {
  const lines = text.split("\n");
  const begin = lines.findIndex((line) => line.trim() === `// kit:begin ${region}`);
  const end = lines.findIndex((line, i) => i > begin && line.trim() === "// kit:end");
  if (begin === -1 || end === -1) throw new CliError(`'${file}' has no region '${region}'`);
  const entries: string[] = [];
  let pending: string[] = [];
  let depth = 0;
  for (const line of lines.slice(begin + 1, end)) {
    const trimmed = line.trim();
    if (trimmed.length === 0 && pending.length === 0) continue;
    pending.push(trimmed);
    depth += bracketDepth(trimmed);
    if (depth <= 0) {
      entries.push(canonicalEntry(pending.join(" ")));
      pending = [];
      depth = 0;
    }
  }
  if (pending.length > 0) {
    throw new CliError(`'${file}' region '${region}' ends inside an unclosed entry`);
  }
  return entries;
}

/**
 * One entry on one line, whatever the formatter made of it: runs of blanks become one space and a
 * trailing comma before a closing bracket goes (`{ a: 1, }` and `{ a: 1 }` are one entry).
 */
export function canonicalEntry(entry: string): string {
  return entry.trim().replace(/\s+/g, " ").replace(/,\s*([}\])])/g, " $1")
    .replace(/([([]) /g, "$1").replace(/ ([)\]])/g, "$1");
}

/** The brackets a line opens minus those it closes, ignoring those inside string literals. */
function bracketDepth(line: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "/" && line[i + 1] === "/") break;
    else if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
  }
  return depth;
}
