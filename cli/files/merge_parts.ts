import type { ThreeSides } from "./merge_regions.ts";

const partBegin = /^\s*\/\/ kit:begin (\S+(?: \S+)+)\s*$/;
const partEnd = /^\s*\/\/ kit:end\s*$/;

/** The sides of a conflicted file with kit's parts settled, and the parts that still clash. */
export interface SettledParts {
  /** The three sides, each part's body the same in all three (what the rest merges around). */
  readonly sides: ThreeSides;
  /**
   * The parts both sides changed, differently: ours is kept in `sides`, and the part must be
   * rewritten from the merged sources it follows (its message, its handler) before it is right.
   */
  readonly clashing: readonly string[];
}

/**
 * Settles the parts of a generated file that kit owns whole (`// kit:begin <two words or more>`
 * … `// kit:end`, as `route schemas`): code kit writes from other sources, never a set of entries
 * to unite line by line. A part one side left as it was takes the other side's body; a part both
 * changed alike keeps it; a part both changed differently keeps ours and is named in `clashing`,
 * for the caller to rewrite from the merged sources. Each side then holds the settled body, so
 * that a text merge of the sides never interleaves two versions of generated code.
 */
export function settleParts(sides: ThreeSides): SettledParts {
  const [base, ours, theirs] = [sides.base, sides.ours, sides.theirs].map(partsOf);
  const settled = new Map<string, string[]>();
  const clashing: string[] = [];
  for (const [name, body] of ours!) {
    const other = theirs!.get(name);
    const before = base!.get(name);
    if (other === undefined) continue;
    const same = (a: string[] | undefined, b: string[] | undefined) =>
      a !== undefined && b !== undefined && a.join("\n") === b.join("\n");
    if (same(body, other) || same(other, before)) settled.set(name, body);
    else if (same(body, before)) settled.set(name, other);
    else {
      settled.set(name, body);
      clashing.push(name);
    }
  }
  return {
    sides: {
      base: withParts(sides.base, settled),
      ours: withParts(sides.ours, settled),
      theirs: withParts(sides.theirs, settled),
    },
    clashing,
  };
}

/** A text's parts: each name's lines between its markers. */
function partsOf(text: string): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const begin = partBegin.exec(line);
    if (open === undefined && begin !== null) {
      open = begin[1]!;
      parts.set(open, []);
    } else if (open !== undefined && partEnd.test(line)) open = undefined;
    else if (open !== undefined) parts.get(open)!.push(line);
  }
  return parts;
}

/** The text with the body of each part `settled` names replaced by its settled lines. */
function withParts(text: string, settled: Map<string, string[]>): string {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const begin = partBegin.exec(line);
    if (open === undefined && begin !== null && settled.has(begin[1]!)) {
      open = begin[1]!;
      out.push(line, ...settled.get(open)!);
    } else if (open !== undefined && partEnd.test(line)) {
      open = undefined;
      out.push(line);
    } else if (open === undefined) out.push(line);
  }
  return out.join("\n");
}
