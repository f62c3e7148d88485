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

/** The entries between a region's markers, trimmed. */
export function readRegion(text: string, region: string, file: string): string[] {
  const lines = text.split("\n");
  const begin = lines.findIndex((line) => line.trim() === `// kit:begin ${region}`);
  const end = lines.findIndex((line, i) => i > begin && line.trim() === "// kit:end");
  if (begin === -1 || end === -1) throw new CliError(`'${file}' has no region '${region}'`);
  return lines.slice(begin + 1, end).map((line) => line.trim()).filter((line) => line.length > 0);
}
