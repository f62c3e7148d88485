import { CliError } from "../cli_error.ts";

/**
 * The parts of a generated file that kit owns, between `// kit:begin <part>` and `// kit:end`
 * lines, where `<part>` is two words or more (`route schemas`): code kit rewrites whole, unlike a
 * one-word region of a shared file (`// kit:begin permissions`), whose lines are a set of entries
 * that `kit resolve` unites. Answers each part's name and its lines between the markers, in order.
 */
export function generatedParts(text: string): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const begin = /^\s*\/\/ kit:begin (\S+(?: \S+)+)\s*$/.exec(line);
    if (open === undefined && begin !== null) {
      open = begin[1]!;
      parts.set(open, []);
    } else if (open !== undefined && line.trim() === "// kit:end") open = undefined;
    else if (open !== undefined) parts.get(open)!.push(line);
  }
  return parts;
}

/**
 * `current` with each of kit's parts replaced by the same part of `generated`; every line outside
 * them (the user's) kept as it is. A part of `generated` that `current` lacks is refused, naming
 * the file: it was written before kit marked its parts, or its markers were removed.
 */
export function replaceGeneratedParts(
  current: string,
  generated: string,
  file: string,
  remedy: string,
): string {
  const wanted = generatedParts(generated);
  const present = generatedParts(current);
  const missing = [...wanted.keys()].find((part) => !present.has(part));
  if (missing !== undefined) {
    throw new CliError(
      `${file} has no '// kit:begin ${missing}' … '// kit:end' part (written before kit marked the parts it owns, or its markers were removed): ${remedy}`,
    );
  }
  const out: string[] = [];
  let open: string | undefined;
  for (const line of current.split("\n")) {
    const begin = /^\s*\/\/ kit:begin (\S+(?: \S+)+)\s*$/.exec(line);
    if (open === undefined && begin !== null && wanted.has(begin[1]!)) {
      open = begin[1]!;
      out.push(line, ...wanted.get(open)!);
    } else if (open !== undefined && line.trim() === "// kit:end") {
      open = undefined;
      out.push(line);
    } else if (open === undefined) out.push(line);
  }
  return out.join("\n");
}
