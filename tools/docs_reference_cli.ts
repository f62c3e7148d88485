/**
 * The CLI reference (docs/reference/cli.md), generated from what `kit` says of itself: its
 * commands and options from `kit --help --json` (run as `deno run -A cli/main.ts --help --json`),
 * read from its text help (`kit --help`, two columns: the synopsis, then what it does) while the
 * command answers no JSON, and the generator catalog's kinds from `kit generate --help --json`.
 *
 * @module
 */

/** One command of the reference: its synopsis, what it does, its options. */
export interface CommandEntry {
  /** The command's words (`slice add`), as its heading says. */
  readonly name: string;
  /** Its synopsis after `kit` (`slice add <context> ...`). */
  readonly synopsis: string;
  /** What it does. */
  readonly help: string;
  /** Its options, each with what it does (empty when the help names them in its text). */
  readonly options: readonly { readonly name: string; readonly help: string }[];
}

/** What `kit --help` documents: the commands and the options of `kit` itself. */
export interface CliHelp {
  readonly commands: readonly CommandEntry[];
  readonly options: readonly { readonly name: string; readonly help: string }[];
}

/** One kind of the generator catalog, as `kit generate --help --json` answers it. */
interface GeneratorKind {
  readonly kind: string;
  readonly summary: string;
  readonly usage: string;
  readonly example?: string;
  readonly options?: readonly string[];
  readonly sharedWrites?: readonly { readonly file: string; readonly option?: string }[];
}

async function runKit(root: string, args: readonly string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...args],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(
      `kit ${args.join(" ")} failed (exit ${output.code}): ${
        new TextDecoder().decode(output.stderr)
      }`,
    );
  }
  return new TextDecoder().decode(output.stdout);
}

/** The command's words in a synopsis: up to its first argument, option or alternative. */
function commandName(synopsis: string): string {
  const words: string[] = [];
  for (const word of synopsis.split(/\s+/)) {
    if (/^[<[\-(|.]/.test(word) || word === "") break;
    words.push(word);
  }
  return words.join(" ");
}

const text = (value: unknown): string => typeof value === "string" ? value : "";

// deno-lint-ignore no-explicit-any
function optionOf(option: any): { name: string; help: string } {
  if (typeof option === "string") return { name: option, help: "" };
  const name = text(option?.usage) || text(option?.name) || text(option?.flag) ||
    text(option?.option);
  if (name === "") {
    throw new Error(`kit --help --json: an option with no name: ${JSON.stringify(option)}`);
  }
  return {
    name: name.startsWith("-") || text(option?.usage) !== "" ? name : `--${name}`,
    help: text(option?.help) || text(option?.summary) || text(option?.description),
  };
}

/**
 * Options as a list (names, or objects naming themselves) or as `parseArgs`'s record (`{ context:
 * { type: "string", multiple: true } }`: `--context <value>`, repeatable).
 */
function optionsOf(options: unknown): { name: string; help: string }[] {
  if (Array.isArray(options)) return options.map(optionOf);
  if (options === null || typeof options !== "object") return [];
  // deno-lint-ignore no-explicit-any
  return Object.entries(options as Record<string, any>).map(([key, option]) => {
    const own = optionOf({ name: key, ...option });
    const value = option?.type === "string" ? " <value>" : "";
    const repeated = option?.multiple === true ? " (repeatable)" : "";
    return { name: `${own.name}${value}`, help: `${own.help}${repeated}`.replace(/^ /, "") };
  });
}

/**
 * The commands of `kit --help --json`: an array of commands, or an object with `commands` (and
 * `options`); each command names itself (`name` or `command`) and its synopsis (`usage`, with or
 * without its name), says what it does (`help`, `summary` or `description`), and may list its
 * `options` (strings, objects with a name and their help, or `parseArgs`'s record) and its own
 * `commands`. A command whose help is its lines of `kit --help` (indented synopses, then what they
 * do) is read as that text.
 *
 * @param json What `kit --help --json` printed, parsed.
 * @returns The reference's commands and global options.
 * @throws {Error} For a command with neither a name nor a synopsis.
 */
export function helpOfJson(json: unknown): CliHelp {
  // deno-lint-ignore no-explicit-any
  const top = json as any;
  const list = Array.isArray(top) ? top : Array.isArray(top?.commands) ? top.commands : undefined;
  if (list === undefined) throw new Error("kit --help --json answered no list of commands");
  const commands: CommandEntry[] = [];
  // deno-lint-ignore no-explicit-any
  const visit = (command: any, prefix: string): void => {
    const own = text(command?.name) || text(command?.command);
    const usage = text(command?.usage) || text(command?.synopsis);
    if (own === "" && usage === "") {
      throw new Error(`kit --help --json: a command with no name: ${JSON.stringify(command)}`);
    }
    const name = [prefix, own || commandName(usage)].filter((part) => part !== "").join(" ");
    const synopsis = usage === "" ? name : usage.startsWith(name) ? usage : `${name} ${usage}`;
    const children = command?.commands ?? command?.subcommands;
    const help = text(command?.help) || text(command?.summary) || text(command?.description);
    const options = optionsOf(command?.options);
    if (usage === "" && /^ {2}\S/.test(help)) {
      // The help is the command's lines of `kit --help` (its synopses and what they do).
      for (const entry of helpOfText(`Commands:\n${help}`).commands) {
        commands.push({ ...entry, options });
      }
    } else if (!Array.isArray(children) || help !== "" || usage !== "") {
      commands.push({ name, synopsis: synopsis.replace(/^kit /, ""), help, options });
    }
    if (Array.isArray(children)) { for (const child of children) visit(child, name); }
  };
  for (const command of list) visit(command, "");
  return { commands, options: optionsOf(top?.options) };
}

/**
 * The commands of `kit --help`'s text: under `Commands:`, a line indented two spaces starts one
 * (its synopsis, then, after two spaces or more, what it does), and the lines indented further
 * continue what it does; under `Options:`, the same for each option.
 *
 * @param help What `kit --help` printed.
 * @returns The reference's commands and global options.
 * @throws {Error} When the text has no `Commands:` section.
 */
export function helpOfText(help: string): CliHelp {
  const commands: CommandEntry[] = [];
  const options: { name: string; help: string }[] = [];
  let section: "commands" | "options" | undefined;
  let current: { synopsis: string; help: string[] } | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    const joined = current.help.join(" ");
    if (section === "commands") {
      commands.push({
        name: commandName(current.synopsis),
        synopsis: current.synopsis,
        help: joined,
        options: [],
      });
    } else options.push({ name: current.synopsis, help: joined });
    current = undefined;
  };
  for (const line of help.split("\n")) {
    if (/^\S/.test(line)) {
      flush();
      section = /^Commands:/.test(line)
        ? "commands"
        : /^Options:/.test(line)
        ? "options"
        : undefined;
      continue;
    }
    if (section === undefined || line.trim() === "") continue;
    if (/^ {2}\S/.test(line)) {
      flush();
      const [synopsis, ...rest] = line.trim().split(/ {2,}/);
      current = { synopsis: synopsis!, help: rest.length === 0 ? [] : [rest.join(" ")] };
    } else current?.help.push(line.trim());
  }
  flush();
  if (commands.length === 0) throw new Error("kit --help names no command under 'Commands:'");
  return { commands, options };
}

/** Text of the help made safe in Markdown prose (VitePress reads `<x>` as an HTML tag). */
function prose(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /\{\{/g,
    "&#123;&#123;",
  );
}

/** Reads the CLI's help, JSON when it answers JSON, else its text. */
async function cliHelp(root: string): Promise<{ help: CliHelp; source: string }> {
  const answer = await runKit(root, ["--help", "--json"]);
  try {
    return { help: helpOfJson(JSON.parse(answer)), source: "`kit --help --json`" };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { help: helpOfText(answer), source: "`kit --help`" };
  }
}

/**
 * The CLI reference page, unformatted.
 *
 * @param root The repository's folder.
 * @returns The Markdown of docs/reference/cli.md.
 * @throws {Error} When `kit` fails or answers help this generator cannot read.
 */
export async function cliReference(root: string): Promise<string> {
  const { help, source } = await cliHelp(root);
  const catalog = JSON.parse(await runKit(root, ["generate", "--help", "--json"])) as {
    kinds: GeneratorKind[];
  };
  const lines = [
    "# The kit command",
    "",
    `<!-- Generated by \`deno task docs:reference\` (tools/docs_reference_cli.ts) from ${source}`,
    "and `kit generate --help --json`; tools/docs_reference_test.ts fails when this page differs.",
    "Do not edit. -->",
    "",
    "Every command of `kit`, as `kit --help` describes it, and every kind `kit generate` writes, as",
    "its catalog describes it. Installing the command: [Install and run](../getting-started/install.md).",
    "",
    "## Commands",
  ];
  const byName = new Map<string, CommandEntry[]>();
  for (const command of help.commands) {
    byName.set(command.name, [...byName.get(command.name) ?? [], command]);
  }
  for (const [name, entries] of byName) {
    lines.push("", `### kit ${name}`);
    for (const entry of entries) {
      lines.push("", "```sh", `kit ${entry.synopsis}`, "```");
      if (entry.help !== "") lines.push("", prose(entry.help));
      if (entry.options.length > 0) {
        lines.push("");
        for (const option of entry.options) {
          lines.push(`- \`${option.name}\`${option.help === "" ? "" : `: ${prose(option.help)}`}`);
        }
      }
    }
  }
  if (help.options.length > 0) {
    lines.push("", "## Options of kit", "");
    for (const option of help.options) {
      lines.push(`- \`${option.name}\`${option.help === "" ? "" : `: ${prose(option.help)}`}`);
    }
  }
  lines.push(
    "",
    "## What kit generate writes",
    "",
    "`kit generate <kind> <context> <Name> [options]`; `kit generate <kind> --help` prints a kind's",
    "help. A shared file is one outside the context's folder (a worker scope announces a write to",
    "it; `--local-only` refuses it).",
  );
  for (const kind of catalog.kinds) {
    lines.push("", `### ${kind.kind}`, "", prose(kind.summary), "", "```sh");
    lines.push(`kit generate ${kind.kind} ${kind.usage}`.trimEnd(), "```");
    if (kind.example !== undefined) lines.push("", `Example: \`${kind.example}\``);
    const shared = kind.sharedWrites ?? [];
    if (shared.length > 0) {
      lines.push(
        "",
        `Shared files: ${
          shared.map((write) =>
            `\`${write.file}\`${write.option === undefined ? "" : ` (with \`${write.option}\`)`}`
          ).join(", ")
        }.`,
      );
    }
  }
  return lines.join("\n") + "\n";
}
