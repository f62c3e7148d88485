import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { applyPlan } from "../files/file_plan.ts";
import { formatPlan } from "../files/format_files.ts";
import { findProjectRoot, readConfig } from "../project/kit_config.ts";
import { readSlicePlan, type SliceRow } from "../project/slice_plan.ts";

const planPath = "docs/architecture/slices.md";
const kinds = ["contract", "skeleton", "slice"] as const;

/** What `kit slice add` is given. */
export interface NewSlice {
  /** The context it builds (`platform` for the conductor's own rows). */
  readonly context: string;
  /** `contract`, `skeleton` (the conductor's) or `slice` (the context's worker's). */
  readonly kind: string;
  /** Its title. */
  readonly title: string;
  /** The generator invocations to start with. */
  readonly startWith?: string;
  /** The rows it waits for. */
  readonly dependsOn?: readonly number[];
  /** Who builds it (default `conductor` for contracts and skeletons, `worker` for slices). */
  readonly owner?: string;
}

/**
 * `kit slice add`: appends a row to the slice plan, numbered after the last, status `todo`.
 * Refused in a worker's worktree (only the conductor edits the plan), for a context the project
 * does not have, an unknown kind, a row it depends on that does not exist, or a `|` in a cell.
 */
export async function addSlice(cwd: string, slice: NewSlice): Promise<SliceRow> {
  const root = conductorRoot(cwd);
  const config = await readConfig(root);
  const rows = await readSlicePlan(root);
  if (slice.context !== "platform" && !config.contexts.some((c) => c.name === slice.context)) {
    throw new CliError(
      `slice add: unknown context '${slice.context}' (the project has ${
        config.contexts.map((c) => c.name).join(", ")
      }, and platform)`,
    );
  }
  if (!(kinds as readonly string[]).includes(slice.kind)) {
    throw new CliError(`slice add: kind '${slice.kind}' is not one of ${kinds.join(", ")}`);
  }
  for (
    const [name, value] of [["title", slice.title], ["--start-with", slice.startWith ?? ""], [
      "--owner",
      slice.owner ?? "",
    ]]
  ) {
    if (/[|\n]/.test(value!)) throw new CliError(`slice add: ${name} cannot hold '|' or a newline`);
  }
  if (slice.title.trim() === "") throw new CliError("slice add: the slice needs a title");
  const unknown = (slice.dependsOn ?? []).filter((n) => !rows.some((row) => row.number === n));
  if (unknown.length > 0) {
    throw new CliError(`slice add: --depends-on names no row ${unknown.join(", ")}`);
  }
  const row: SliceRow = {
    number: Math.max(0, ...rows.map((r) => r.number)) + 1,
    context: slice.context,
    kind: slice.kind,
    slice: slice.title.trim(),
    startWith: slice.startWith === undefined ? "" : `\`${slice.startWith}\``,
    dependsOn: (slice.dependsOn ?? []).join(", "),
    owner: slice.owner ?? (slice.kind === "slice" ? "worker" : "conductor"),
    status: "todo",
  };
  await writePlan(root, (text) => insertRow(text, row));
  return row;
}

/**
 * `kit slice done <#>...`: marks rows done (`todo` → `done`, the plan's one move). Refused in a
 * worker's worktree, for a row that does not exist, and for a row whose dependencies are not all
 * done (named), unless they are marked done in the same call.
 */
export async function markSlicesDone(cwd: string, numbers: readonly number[]): Promise<SliceRow[]> {
  const root = conductorRoot(cwd);
  if (numbers.length === 0) throw new CliError("Usage: kit slice done <#> [<#> ...]");
  const rows = await readSlicePlan(root);
  const marked: SliceRow[] = [];
  for (const number of numbers) {
    const row = rows.find((r) => r.number === number);
    if (row === undefined) throw new CliError(`slice done: the slice plan has no row ${number}`);
    const waiting = row.dependsOn.split(",").map((n) => n.trim()).filter((n) => n !== "")
      .map(Number).filter((n) =>
        !numbers.includes(n) && rows.find((r) => r.number === n)?.status !== "done"
      );
    if (waiting.length > 0) {
      throw new CliError(
        `slice done: row ${number} depends on row ${waiting.join(", ")}, not done yet`,
      );
    }
    marked.push({ ...row, status: "done" });
  }
  await writePlan(root, (text) => marked.reduce((t, row) => replaceRow(t, row), text));
  return marked;
}

function conductorRoot(cwd: string): string {
  const root = findProjectRoot(cwd);
  if (existsSync(join(root, ".kit/worker.json"))) {
    throw new CliError(
      "slice: only the conductor edits the slice plan; run it in the trunk's tree, not in a worker's worktree",
    );
  }
  return root;
}

async function writePlan(root: string, change: (text: string) => string): Promise<void> {
  const text = await readFile(join(root, planPath), "utf8");
  await applyPlan(root, await formatPlan(root, [{ path: planPath, contents: change(text) }]));
}

function cells(row: SliceRow): string {
  return `| ${
    [
      row.number,
      row.context,
      row.kind,
      row.slice,
      row.startWith,
      row.dependsOn,
      row.owner,
      row.status,
    ].join(" | ")
  } |`;
}

function rowLine(line: string): number | undefined {
  const number = /^\|\s*(\d+)\s*\|/.exec(line)?.[1];
  return number === undefined ? undefined : Number(number);
}

/** The plan with a row after its table's last row. */
function insertRow(text: string, row: SliceRow): string {
  const lines = text.split("\n");
  const last = lines.findLastIndex((line) => line.startsWith("|"));
  if (last === -1) throw new CliError(`${planPath} has no table`);
  lines.splice(last + 1, 0, cells(row));
  return lines.join("\n");
}

function replaceRow(text: string, row: SliceRow): string {
  return text.split("\n").map((line) => rowLine(line) === row.number ? cells(row) : line)
    .join("\n");
}
