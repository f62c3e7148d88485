/**
 * One command of the `kit` CLI as the command table holds it: its name, its lines of help, its
 * options (parsed with `node:util`'s `parseArgs` before it runs) and what it runs.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** The options of a command, as `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/** The values `parseArgs` answers for `O`: a string or boolean each, an array when `multiple`. */
export type OptionValues<O extends CommandOptions> = {
  [K in keyof O]?: O[K] extends { type: "boolean" } ? O[K] extends { multiple: true } ? boolean[]
    : boolean
    : O[K] extends { multiple: true } ? string[]
    : string;
};

/** What a command runs with. */
export interface CommandInput<O extends CommandOptions> {
  /** Its options, parsed (none when the command parses no options). */
  readonly values: OptionValues<O>;
  /** Its positional arguments (every argument when it parses no options). */
  readonly positionals: readonly string[];
  /** The directory it runs in. */
  readonly cwd: string;
  /** Reads an environment variable (the process's, unless the caller gave its own). */
  readonly env: (name: string) => string | undefined;
}

/** A command of the table. */
export interface Command<O extends CommandOptions = CommandOptions> {
  /** The word after `kit`. */
  readonly name: string;
  /** Its lines in `kit --help`, each synopsis at two spaces, its description continuing at more. */
  readonly help: string;
  /** Its options; without them, its arguments are given as they are, as positionals. */
  readonly options?: O;
  /** Whether it takes positional arguments beside its options. */
  readonly positionals?: boolean;
  /** Whether it answers `--help` itself (`kit generate <kind> --help`). */
  readonly ownHelp?: boolean;
  /** Runs it; answers the exit code. A `CliError` is printed as one line, exit code 1. */
  run(input: CommandInput<O>): Promise<number>;
}

/** `spec` as an entry of the table, its options typing its run's values. */
export function command<const O extends CommandOptions>(spec: Command<O>): Command {
  return spec as unknown as Command;
}

/** The process's environment, as commands read it by default. */
export const processEnv = (name: string): string | undefined => Deno.env.get(name);

/** Parses `args` for `entry` (refusing an unknown option) and runs it. */
export function runCommand(
  entry: Command,
  args: readonly string[],
  cwd: string,
  env: (name: string) => string | undefined = processEnv,
): Promise<number> {
  if (entry.options === undefined) return entry.run({ values: {}, positionals: args, cwd, env });
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: entry.positionals === true,
    options: entry.options,
  });
  return entry.run({ values: values as OptionValues<CommandOptions>, positionals, cwd, env });
}
