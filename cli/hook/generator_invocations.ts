/**
 * The runs of `kit generate` in a shell command line, however kit is invoked.
 *
 * @module
 */

import { commandEffects } from "./command_effects.ts";
import { parseShell, type ShellWord } from "./shell_words.ts";

/** One run of `kit generate` seen in a command line. */
export interface GeneratorInvocation {
  /** The kind, as typed after `generate`. */
  readonly kind: string;
  /** The positional arguments after the kind. */
  readonly positionals: readonly string[];
  /** The options given (`--role`, `--local-only`), without their values. */
  readonly options: ReadonlySet<string>;
  /** Whether every argument is passed as written (no `$NAME`, no `$(…)`, no `*` or `{a,b}`). */
  readonly literal: boolean;
}

/**
 * The run of `kit generate` that `args` (the words after kit's executable or module) make, or
 * undefined when they run another command or no kind.
 */
export function generatorInvocation(args: readonly ShellWord[]): GeneratorInvocation | undefined {
  const [command, kind, ...rest] = args;
  if (command?.text !== "generate" || kind === undefined || kind.text.startsWith("-")) {
    return undefined;
  }
  const words = rest.map((a) => a.text);
  const end = words.indexOf("--"); // after it, every word is an operand, as kit's parser reads it
  const options = end === -1 ? words : words.slice(0, end);
  return {
    kind: kind.text,
    positionals: [
      ...options.filter((a) => !a.startsWith("-")),
      ...(end === -1 ? [] : words.slice(end + 1)),
    ],
    options: new Set(options.filter((a) => a.startsWith("--")).map((a) => a.split("=")[0]!)),
    literal: args.every((a) => a.literal && !a.pattern),
  };
}

/**
 * The runs of `kit generate` in `command` run from `cwd`, each a command of its own, seen through
 * wrappers (`env`, `time`, `sh -c`, `cd … &&`): `kit generate` (`kit` on the PATH or a path ending
 * in `/kit`), `deno run [flags] <module> generate` where the module ends in `cli/main.ts` (a
 * checkout) or is `jsr:@kit/cli` with or without a version, and `deno task [flags] kit generate`
 * (a project's task named `kit`). Quoted text is one word, so a commit message that names a
 * generator is no run of it.
 *
 * @example
 * ```ts
 * import { generatorInvocations } from "./generator_invocations.ts";
 * generatorInvocations("env CI=1 kit generate context billing");
 * // [{ kind: "context", positionals: ["billing"], options: new Set(), literal: true }]
 * ```
 * @throws {import("./shell_words.ts").ShellSyntaxError} when the line cannot be read.
 */
export function generatorInvocations(command: string, cwd = "/"): GeneratorInvocation[] {
  return commandEffects(parseShell(command), cwd).flatMap((effect) => {
    const run = effect.type === "kit" ? generatorInvocation(effect.args) : undefined;
    return run === undefined ? [] : [run];
  });
}
