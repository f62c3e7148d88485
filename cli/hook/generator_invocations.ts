/**
 * The runs of `kit generate` in a shell command line, however kit is invoked.
 *
 * @module
 */

/** One run of `kit generate` seen in a command line. */
export interface GeneratorInvocation {
  /** The kind, as typed after `generate`. */
  readonly kind: string;
  /** The positional arguments after the kind. */
  readonly positionals: readonly string[];
  /** The options given (`--role`, `--local-only`), without their values. */
  readonly options: ReadonlySet<string>;
}

const separator = Symbol("separator");
type Token = string | typeof separator;

/**
 * The runs of `kit generate` in `command`, each a command of its own (first in the line or after
 * `;`, `&&`, `||`, `|`, `&`, a parenthesis or a new line, after any `NAME=value`): `kit generate`
 * (`kit` on the PATH or a path ending in `/kit`), `deno run [flags] <module> generate` where the
 * module ends in `cli/main.ts` (a checkout) or is `jsr:@kit/cli` with or without a version, and
 * `deno task [flags] kit generate` (a project's task named `kit`). Quoted text is one word, so a
 * commit message that names a generator is no run of it.
 */
export function generatorInvocations(command: string): GeneratorInvocation[] {
  const runs: GeneratorInvocation[] = [];
  for (const words of commands(tokenize(command))) {
    const args = generateArguments(
      words.filter((_, i) => i >= words.findIndex((w) => !isAssignment(w))),
    );
    const [kind, ...rest] = args ?? [];
    if (kind === undefined || kind.startsWith("-")) continue;
    runs.push({
      kind,
      positionals: rest.filter((a) => !a.startsWith("-")),
      options: new Set(rest.filter((a) => a.startsWith("--")).map((a) => a.split("=")[0]!)),
    });
  }
  return runs;
}

/** The words after `generate` when `words` run kit's generate, else undefined. */
function generateArguments(words: readonly string[]): readonly string[] | undefined {
  const [program, ...rest] = words;
  if (program === undefined) return undefined;
  let i: number;
  if (program === "kit" || program.endsWith("/kit")) i = 0;
  else if (program === "deno" && (rest[0] === "run" || rest[0] === "task")) {
    i = 1;
    while (rest[i]?.startsWith("-")) i++;
    const entry = rest[i] ?? "";
    const kit = rest[0] === "task" ? entry === "kit" : isKitModule(entry);
    if (!kit) return undefined;
    i++;
  } else return undefined;
  return rest[i] === "generate" ? rest.slice(i + 1) : undefined;
}

function isKitModule(word: string): boolean {
  return /(^|\/)cli\/main\.ts$/.test(word) ||
    /^jsr:@kit\/cli(@[^/\s]*)?(\/main(\.ts)?)?$/.test(word);
}

function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/** The commands of a token list: the words between separators. */
function commands(tokens: readonly Token[]): string[][] {
  const out: string[][] = [[]];
  for (const token of tokens) {
    if (typeof token === "string") out.at(-1)!.push(token);
    else out.push([]);
  }
  return out.filter((words) => words.length > 0);
}

/** Words of a shell command line, quotes removed, with the command separators as `separator`. */
function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const end = () => {
    if (word !== undefined) tokens.push(word);
    word = undefined;
  };
  for (const char of command) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word = (word ?? "") + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char) && char !== "\n") {
      end();
    } else if (";&|()\n".includes(char)) {
      end();
      tokens.push(separator);
    } else {
      word = (word ?? "") + char;
    }
  }
  end();
  return tokens;
}
