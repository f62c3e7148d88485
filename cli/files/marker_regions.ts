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
  const body = [...new Set(entries)].sort().map((entry) => indent + entry);
  return [...lines.slice(0, begin + 1), ...body, ...lines.slice(end)].join("\n");
}

/**
 * The entries between a region's markers, one string each: an entry the formatter spread over
 * several lines (a long import, an object) is joined back into one line, so that entries sort
 * and compare the same however they were formatted.
 */
export function readRegion(text: string, region: string, file: string): string[] {
  const lines = text.split("\n");
  const begin = lines.findIndex((line) => line.trim() === `// kit:begin ${region}`);
  const end = lines.findIndex((line, i) => i > begin && line.trim() === "// kit:end");
  if (begin === -1 || end === -1) throw new CliError(`'${file}' has no region '${region}'`);
  const entries: string[] = [];
  let pending: string[] = [];
  let depth = 0;
  for (const line of lines.slice(begin + 1, end).map((l) => l.trim()).filter((l) => l !== "")) {
    pending.push(line);
    depth += (line.match(/[{[(]/g) ?? []).length - (line.match(/[}\])]/g) ?? []).length;
    if (depth <= 0 && !line.startsWith("//")) {
      entries.push(joinEntry(pending));
      pending = [];
      depth = 0;
    } else if (depth <= 0) {
      entries.push(...pending);
      pending = [];
    }
  }
  if (pending.length > 0) entries.push(joinEntry(pending));
  return entries;
}

function joinEntry(lines: readonly string[]): string {
  if (lines.length === 1) return lines[0]!;
  return lines.join(" ").replace(/([{[(]) /g, "$1 ").replace(/,\s*([}\])])/g, " $1")
    .replace(/\s+/g, " ").replace(/\( /g, "(").replace(/\[ /g, "[");
}
