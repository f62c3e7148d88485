/**
 * The `kit` command-line tool: `kit init`, `kit generate`, `kit --help`. This file only finds the
 * command in the table (`command_table.ts`) and runs it; the work is in `commands/`.
 *
 * @module
 */
import { CliError } from "./cli_error.ts";
import { processEnv, runCommand } from "./command.ts";
import { commandTable } from "./command_table.ts";
import denoJson from "./deno.json" with { type: "json" };

const usage = [
  "Usage: kit <command> [options]",
  "",
  "Commands:",
  ...commandTable.map((entry) => entry.help),
  "",
  "Options:",
  "  --help      this text (also after a command)",
  "  --version   the version of kit",
].join("\n");

/** The usage lines of one command (its line and the lines continuing it), or none if unknown. */
function commandHelp(command: string): string | undefined {
  const lines = usage.split("\n");
  const entries: string[] = [];
  for (let start = 0; start < lines.length; start++) {
    const line = lines[start]!;
    if (!/^ {2}\S/.test(line)) continue;
    if (line.trim() !== command && !line.trim().startsWith(`${command} `)) continue;
    let end = start + 1;
    while (end < lines.length && /^ {4,}\S/.test(lines[end]!)) end++;
    const [synopsis, ...first] = line.trim().split(/ {2,}/);
    const summary = [...first, ...lines.slice(start + 1, end).map((l) => l.trim())].join(" ");
    entries.push(
      summary === "" ? `Usage: kit ${synopsis}` : `Usage: kit ${synopsis}\n\n${summary}`,
    );
    start = end - 1;
  }
  return entries.length === 0 ? undefined : entries.join("\n\n");
}

/** Runs the CLI with its arguments; answers the exit code. */
export async function main(
  args: readonly string[],
  cwd: string = Deno.cwd(),
  env: (name: string) => string | undefined = processEnv,
): Promise<number> {
  const [command, ...rest] = args;
  if (command === "--version") {
    console.log(`kit ${denoJson.version}`);
    return 0;
  }
  if (command === undefined || command === "--help" || command === "-h") {
    console.log(usage);
    return 0;
  }
  const entry = commandTable.find((candidate) => candidate.name === command);
  if (!entry?.ownHelp && (rest.includes("--help") || rest.includes("-h"))) {
    const help = commandHelp(command);
    if (help === undefined) {
      console.error(`kit: Unknown command '${command}': run 'kit --help'`);
      return 1;
    }
    console.log(help);
    return 0;
  }
  try {
    if (entry === undefined) throw new CliError(`Unknown command '${command}': run 'kit --help'`);
    return await runCommand(entry, rest, cwd, env);
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`kit: ${error.message}`);
      return 1;
    }
    if (
      error instanceof TypeError && (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      // node:util's message, cut to its first sentence (the rest explains `--` with unbalanced
      // quotes): "Unknown option '--bogus'".
      console.error(`kit: ${error.message.split(". ")[0]}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
