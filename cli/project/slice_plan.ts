import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";

/** One row of `docs/architecture/slices.md`. */
export interface SliceRow {
  readonly number: number;
  readonly context: string;
  readonly kind: string;
  readonly slice: string;
  readonly startWith: string;
  readonly dependsOn: string;
  readonly owner: string;
  readonly status: string;
}

/** Reads the slice plan's table; refuses a malformed row, naming its line. */
export async function readSlicePlan(root: string): Promise<SliceRow[]> {
  const path = join(root, "docs/architecture/slices.md");
  if (!existsSync(path)) throw new CliError(`No slice plan: '${path}' is missing`);
  const rows: SliceRow[] = [];
  const lines = (await readFile(path, "utf8")).split("\n");
  lines.forEach((line, index) => {
    if (!line.startsWith("|") || /^\|\s*(#|-)/.test(line)) return;
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    if (cells.length !== 8 || !/^\d+$/.test(cells[0]!)) {
      throw new CliError(
        `docs/architecture/slices.md:${index + 1}: a row needs 8 cells starting with its number`,
      );
    }
    const [number, context, kind, slice, startWith, dependsOn, owner, status] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    rows.push({
      number: Number(number),
      context,
      kind,
      slice,
      startWith,
      dependsOn,
      owner,
      status,
    });
  });
  return rows;
}
