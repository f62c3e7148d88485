import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pascalOf } from "../project/kit_config.ts";

/** The edit distance of two names: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known names close to a mistyped one, closest first: within a third of its length (at least
 * one edit), case aside. `Bikes` is close to `Bike`, `fleet` to `fleets`; `Rider` to nothing in
 * `Bike, Station`.
 */
export function closeNames(name: string, known: readonly string[]): string[] {
  const most = Math.max(1, Math.floor(name.length / 3));
  return known
    .map((candidate) => ({
      candidate,
      distance: editDistance(name.toLowerCase(), candidate.toLowerCase()),
    }))
    .filter((c) => c.distance <= most && c.candidate !== name)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .map((c) => c.candidate);
}

/** `did you mean 'Bike'?` (or `'Bike' or 'Bikes'`), or nothing when no known name is close. */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  const close = closeNames(name, known).slice(0, 3);
  return close.length === 0
    ? undefined
    : `did you mean ${close.map((c) => `'${c}'`).join(" or ")}?`;
}

/** The aggregates of a context: its `domain/<name>.ts` files that are neither specs nor codes. */
export function aggregatesOf(root: string, context: string): string[] {
  return namesIn(join(root, "src/contexts", context, "domain"), /^([a-z0-9-]+)\.ts$/)
    .filter((kebab) => !/-(errors|refusals)$/.test(kebab))
    .map(pascalOf);
}

/** The commands (or queries) of a context, by their folders under `application/`. */
export function messagesOf(root: string, context: string, kind: "command" | "query"): string[] {
  const dir = join(root, "src/contexts", context, "application", `${kind}s`);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory())
    .map((e) => pascalOf(e.name));
}

/** The ports of a context (`application/ports/<name>.ts`). */
export function portsOf(root: string, context: string): string[] {
  return namesIn(join(root, "src/contexts", context, "application", "ports"), /^([a-z0-9-]+)\.ts$/)
    .map(pascalOf);
}

/** The integration events of a context's published language. */
export function eventsOf(root: string, context: string): string[] {
  return namesIn(
    join(root, "src/contexts", context, "published-language"),
    /^([a-z0-9-]+)\.event\.ts$/,
  ).map(pascalOf);
}

/** The background jobs of a context (`application/background/<name>.job.ts`). */
export function jobsOf(root: string, context: string): string[] {
  return namesIn(
    join(root, "src/contexts", context, "application", "background"),
    /^([a-z0-9-]+)\.job\.ts$/,
  ).map(pascalOf);
}

function namesIn(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((file) => {
    const match = pattern.exec(file);
    return match === null ? [] : [match[1]!];
  }).sort();
}

/** `did you mean 'Bike'? Else run ` before a command to run, or `run ` when nothing is close. */
export function orRun(suggestion: string | undefined): string {
  return suggestion === undefined ? "run " : `${suggestion} Else run `;
}

/** `did you mean 'fleet'? The ` before a list of what is known, or `the ` when nothing is close. */
export function orThe(suggestion: string | undefined): string {
  return suggestion === undefined ? "the " : `${suggestion} The `;
}
