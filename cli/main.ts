/**
 * The `kit` command-line tool. Its commands arrive with the CLI issue; until then it answers
 * `--version` and `--help` only.
 *
 * @module
 */
import denoJson from "./deno.json" with { type: "json" };

/** Runs the CLI with the given arguments and answers the exit code. */
export function main(args: readonly string[]): number {
  if (args[0] === "--version") {
    console.log(`kit ${denoJson.version}`);
    return 0;
  }
  console.log(
    "Usage: kit <command>\n\nCommands (init, docs, generate, worker-scope, status, todo) are not built yet.",
  );
  return args.length === 0 || args[0] === "--help" ? 0 : 1;
}

if (import.meta.main) Deno.exit(main(Deno.args));
