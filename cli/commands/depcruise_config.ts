import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { depcruiseConfig, depcruiseConfigPath } from "../check/depcruise_rules.ts";
import { CliError } from "../cli_error.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { formatPlan } from "../files/format_files.ts";
import { findProjectRoot, type KitConfig, readConfig } from "../project/kit_config.ts";

/** What `kit depcruise-config` is asked to do: print (the default), check, or write. */
export type DepcruiseConfigMode = "print" | "check" | "write";

/** What `kit depcruise-config` answers. */
export interface DepcruiseConfigResult {
  /** The file's current text, as derived from `kit.config.json` and formatted. */
  readonly text: string;
  /** Whether the file on disk held that text before the command ran. */
  readonly wasCurrent: boolean;
}

/**
 * The planned write of `.dependency-cruiser.cjs` for a config (unformatted: plans are formatted
 * with the rest of their files).
 *
 * @param config The project's config, as it will be written.
 * @returns The write.
 */
export function depcruiseConfigWrite(config: KitConfig): FileWrite {
  return { path: depcruiseConfigPath, contents: depcruiseConfig(config) };
}

/**
 * `kit depcruise-config`: derives `.dependency-cruiser.cjs` from `kit.config.json` in the project
 * around `cwd`. `print` changes nothing; `check` refuses (changing nothing) when the file is
 * missing or differs; `write` writes it when it differs (a hand edit is overwritten).
 *
 * @param cwd A folder inside the project.
 * @param mode What to do.
 * @returns The derived text and whether the file was current.
 */
export async function depcruiseConfigCommand(
  cwd: string,
  mode: DepcruiseConfigMode,
): Promise<DepcruiseConfigResult> {
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  const [write] = await formatPlan(root, [depcruiseConfigWrite(config)]);
  const text = write!.contents;
  const path = join(root, depcruiseConfigPath);
  const wasCurrent = existsSync(path) && (await readFile(path, "utf8")) === text;
  if (mode === "check" && !wasCurrent) {
    throw new CliError(
      `'${depcruiseConfigPath}' is ${
        existsSync(path) ? "stale" : "missing"
      }: it is derived from kit.config.json (run 'kit depcruise-config --write')`,
    );
  }
  if (mode === "write" && !wasCurrent) await applyPlan(root, [write!]);
  return { text, wasCurrent };
}
