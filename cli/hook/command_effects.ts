/**
 * What a parsed command line does that the pre-tool-use hook decides on: the files it writes (by
 * redirection, `tee`, `sed -i`, `cp`, `mv`, `rm`, `touch` and their kind), the runs of kit, the
 * programs that change files of their own choosing (and where they run), the dependency changes,
 * and what the hook cannot read. Wrappers (`env`, `time`, `nice`, `timeout`,
 * `nohup`, `command`, `exec`, `sudo`, `xargs`, `sh -c`, `bash -c`) are seen through, and the working
 * directory is followed through `cd`, `pushd`, `env -C` and `deno task --cwd`.
 *
 * @module
 */

import { basename, isAbsolute, resolve } from "node:path";
import { denoEffects } from "./deno_command.ts";
import {
  dependencyChange,
  gitReads,
  inlineCode,
  packageRunnerKit,
  readers,
} from "./known_programs.ts";
import { parseShell, type ShellList, type ShellWord, type SimpleCommand } from "./shell_words.ts";
import { writeTargets } from "./write_targets.ts";

/** One thing a command line does that the hook decides on. */
export type CommandEffect =
  | {
    /** A file written, created, moved or removed. */
    readonly type: "write";
    readonly path: ShellWord;
    /** The directory a relative path is resolved from; undefined when the hook cannot tell. */
    readonly cwd: string | undefined;
    /** What writes it (`>`, `tee`, `sed -i`, `cp`). */
    readonly by: string;
  }
  | {
    /** A run of kit, its arguments after the executable or module. */
    readonly type: "kit";
    readonly args: readonly ShellWord[];
    readonly cwd: string | undefined;
    /** Arguments are added that the line does not show (`xargs kit …`). */
    readonly unknownArgs: boolean;
  }
  | {
    /**
     * A program that may change files of its own choosing (`git commit`, `deno task`, `make`, a
     * script): decided by where it runs.
     */
    readonly type: "run";
    readonly program: string;
    readonly cwd: string | undefined;
  }
  | {
    /** A command that changes dependencies (`deno add`, `npm install`). */
    readonly type: "dependencies";
    readonly command: string;
  }
  | {
    /** Something the hook cannot read: what it is, and how to do it instead. */
    readonly type: "opaque";
    readonly what: string;
    readonly instead: string;
  };

/**
 * The effects of `list` run from `cwd`, in order.
 *
 * @example
 * ```ts
 * import { parseShell } from "./shell_words.ts";
 * import { commandEffects } from "./command_effects.ts";
 * commandEffects(parseShell("cd ../trunk && kit generate context x"), "/w");
 * // [{ type: "kit", args: [generate, context, x], cwd: "/trunk", unknownArgs: false }]
 * ```
 */
export function commandEffects(list: ShellList, cwd: string): CommandEffect[] {
  const effects: CommandEffect[] = [];
  walk(list, cwd, { effects, depth: 0 });
  return effects;
}

interface Walk {
  readonly effects: CommandEffect[];
  readonly depth: number;
}

type Cwd = string | undefined;

/** Walks a list; answers the working directory after it. */
function walk(list: ShellList, cwd: Cwd, state: Walk): Cwd {
  if (state.depth > 8) {
    state.effects.push({
      type: "opaque",
      what: "shells nested more than 8 deep",
      instead: "run the commands directly",
    });
    return cwd;
  }
  for (const pipeline of list.pipelines) {
    const alone = pipeline.elements.length === 1;
    pipeline.elements.forEach((element, index) => {
      for (const r of element.redirections) {
        for (const sub of [...r.target.substitutions, ...(r.hereDocSubstitutions ?? [])]) {
          walkInto(sub, cwd, state);
        }
      }
      let after: Cwd;
      if (element.type === "group") {
        after = walkInto(element.body, cwd, state);
        if (element.subshell) after = cwd;
      } else {
        after = simple(element, cwd, index > 0, state);
      }
      for (const r of element.redirections) redirectionEffect(r.operator, r.target, cwd, state);
      if (alone) cwd = after;
    });
  }
  return cwd;
}

function walkInto(list: ShellList, cwd: Cwd, parent: Walk): Cwd {
  return walk(list, cwd, { effects: parent.effects, depth: parent.depth + 1 });
}

const writingRedirections = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

function redirectionEffect(operator: string, target: ShellWord, cwd: Cwd, state: Walk): void {
  const duplicate = operator === ">&" && /^(\d+|-)$/.test(target.text) && target.literal;
  if (writingRedirections.has(operator) || (operator === ">&" && !duplicate)) {
    if (target.text.startsWith("/dev/fd/") && !target.literal) return; // >(…): a process
    state.effects.push({ type: "write", path: target, cwd, by: `'${operator}'` });
  }
}

/** Keywords that open or close a compound command: the command after them runs as usual. */
const keywords = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!"]);

/** A simple command: its substitutions, then what it runs. Answers the directory after it. */
function simple(command: SimpleCommand, cwd: Cwd, piped: boolean, state: Walk): Cwd {
  for (const word of [...command.assignments, ...command.words]) {
    for (const sub of word.substitutions) walkInto(sub, cwd, state);
    if (/(^|\s)CDPATH=/.test(word.text)) {
      state.effects.push({
        type: "opaque",
        what: "CDPATH, which makes cd go where the line does not say",
        instead: "cd to a path written out, without CDPATH",
      });
    }
  }
  let words = [...command.words];
  while (words.length > 0 && words[0]!.literal && keywords.has(words[0]!.text)) {
    words = words.slice(1);
  }
  if (words[0]?.literal && ["for", "in"].includes(words[0].text)) return cwd;
  const hereDoc = command.redirections.find((r) => r.operator.startsWith("<<"));
  const stdin: Stdin = hereDoc !== undefined
    ? {
      from: "document",
      text: hereDoc.operator === "<<<" ? hereDoc.target.text : hereDoc.hereDoc ?? "",
    }
    : piped
    ? { from: "pipe" }
    : { from: "none" };
  return run(words, { cwd, stdin, unknownArgs: false, walk: state });
}

type Stdin = { from: "none" | "pipe" } | { from: "document"; text: string };

interface Run {
  readonly cwd: Cwd;
  readonly stdin: Stdin;
  /** Arguments added that the line does not show (`xargs`). */
  readonly unknownArgs: boolean;
  readonly walk: Walk;
}

const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash"]);

/** Runs `words` (a command name and its arguments); answers the directory after it. */
function run(words: readonly ShellWord[], at: Run): Cwd {
  const [program, ...args] = words;
  const { effects } = at.walk;
  if (program === undefined) {
    if (at.unknownArgs) {
      effects.push({
        type: "opaque",
        what: "a command given by xargs",
        instead: "write the command out",
      });
    }
    return at.cwd;
  }
  if (!program.literal || (program.pattern && !["[", "[["].includes(program.text))) {
    effects.push({
      type: "opaque",
      what: `a command name the shell expands ('${program.text}')`,
      instead: "write the command name out",
    });
    return at.cwd;
  }
  const name = basename(program.text);
  const cwd = builtin(name, args, at);
  return cwd === notBuiltin ? otherProgram(program, name, args, at) : cwd;
}

/** What {@linkcode builtin} answers for a program it does not know. */
const notBuiltin = Symbol("not a builtin");

/**
 * The programs that change the directory, run a command of their own (wrappers, `trap`, `xargs`)
 * or are kit's or Deno's; `notBuiltin` for any other.
 */
function builtin(name: string, args: readonly ShellWord[], at: Run): Cwd | typeof notBuiltin {
  const known = builtins.get(name);
  return known === undefined ? notBuiltin : known(name, args, at);
}

/** A builtin's effects; answers the directory after it. */
type Builtin = (name: string, args: readonly ShellWord[], at: Run) => Cwd;

/** `cd`, `pushd`: the directory they go to (`-`, or none, is one the hook cannot tell). */
function changeDirectory(_name: string, args: readonly ShellWord[], at: Run): Cwd {
  const target = args.find((a) => !a.text.startsWith("-") || a.text === "-");
  return target === undefined || target.text === "-" ? undefined : moveTo(at.cwd, target);
}

function evalBuiltin(_name: string, _args: readonly ShellWord[], at: Run): Cwd {
  at.walk.effects.push({
    type: "opaque",
    what: "'eval'",
    instead: "write the command out without eval",
  });
  return at.cwd;
}

/** `deno`: a run decided by where it runs unless it only reads, and what its line does. */
function deno(_name: string, args: readonly ShellWord[], at: Run): Cwd {
  const { effects } = at.walk;
  if (!denoReads(args.map((a) => a.text))) {
    effects.push({ type: "run", program: "deno", cwd: at.cwd });
  }
  effects.push(...denoEffects(args, {
    cwd: at.cwd,
    fed: at.stdin.from !== "none",
    unknownArgs: at.unknownArgs,
    runLine: (line, cwd) => walkInto(parseShell(line), cwd, at.walk),
  }));
  return at.cwd;
}

function kit(_name: string, args: readonly ShellWord[], at: Run): Cwd {
  at.walk.effects.push({ type: "kit", args, cwd: at.cwd, unknownArgs: at.unknownArgs });
  return at.cwd;
}

const wrappers = [
  "time",
  "nice",
  "nohup",
  "timeout",
  "command",
  "builtin",
  "exec",
  "sudo",
  "stdbuf",
  "ionice",
  "busybox",
  "setsid",
  "doas",
  "unbuffer",
  "watch",
  "coproc",
];

const builtins: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  ["cd", changeDirectory],
  ["pushd", changeDirectory],
  ["popd", () => undefined],
  ["eval", evalBuiltin],
  ["env", (_name, args, at) => env(args, at)],
  ...wrappers.map((name) => [name, wrapped] as const),
  ...["trap", "su", "runuser", "script", "flock"].map((name) =>
    [name, (name: string, args: readonly ShellWord[], at: Run) => {
      runsLine(name, args, at);
      return at.cwd;
    }] as const
  ),
  ["xargs", (_name, args, at) => xargs(args, at)],
  ["deno", deno],
  ["kit", kit],
  ["find", (_name, args, at) => {
    find(args, at);
    return at.cwd;
  }],
]);

/** `trap`, `su`, `runuser`, `script` and `flock`: the command line they run, walked. */
function runsLine(name: string, args: readonly ShellWord[], at: Run): void {
  const line = name === "trap"
    ? args.find((a) => !a.text.startsWith("-"))
    : args[args.findIndex((a) => a.text === "-c" || a.text === "--command") + 1];
  const runs = (name === "trap" && line !== undefined) ||
    args.some((a) => a.text === "-c" || a.text === "--command");
  if (runs && (line === undefined || !line.literal)) {
    at.walk.effects.push({
      type: "opaque",
      what: `'${name}' given a command the shell expands`,
      instead: "write the command out",
    });
  } else if (runs) walkInto(parseShell(line!.text), at.cwd, at.walk);
  else if (name === "flock") {
    run(args.slice(1 + args.findIndex((a) => !a.text.startsWith("-"))), at);
  }
}

/** The options of `xargs` that take a value. */
const xargsValued = new Set([
  "-n",
  "-I",
  "-L",
  "-P",
  "-d",
  "-a",
  "-s",
  "-E",
  "--max-args",
  "--max-lines",
  "--max-procs",
  "--delimiter",
  "--arg-file",
  "--max-chars",
  "--eof",
]);

/** `xargs`: the command it runs, with arguments the line does not show. */
function xargs(args: readonly ShellWord[], at: Run): Cwd {
  const command = afterOptions(args, xargsValued);
  if (command.length === 0) return at.cwd; // echo
  return run(command, { ...at, stdin: { from: "none" }, unknownArgs: true });
}

/**
 * Any other program: a shell, inline code of an interpreter, kit through a package runner, a
 * dependency change, or a program that writes the files its arguments name.
 */
function otherProgram(program: ShellWord, name: string, args: readonly ShellWord[], at: Run): Cwd {
  const { effects } = at.walk;
  const text = args.map((a) => a.text);
  if (shells.has(name)) {
    shell(name, args, at);
    return at.cwd;
  }
  const inline = inlineCode(name, text, at.stdin.from !== "none");
  if (inline !== undefined) {
    effects.push({
      type: "opaque",
      what: inline,
      instead: "change files with the Write and Edit tools, and read with cat, grep or jq",
    });
    return at.cwd;
  }
  const kit = packageRunnerKit(name, args);
  if (kit !== undefined) {
    effects.push({ type: "kit", args: kit, cwd: at.cwd, unknownArgs: at.unknownArgs });
    return at.cwd;
  }
  if (dependencyChange(name, text)) {
    effects.push({ type: "dependencies", command: [program.text, ...text].join(" ") });
    return at.cwd;
  }
  const targets = writeTargets(name, args);
  if (targets === undefined) {
    if (name === "git") git(args, at);
    else if (!readers.has(name)) effects.push({ type: "run", program: name, cwd: at.cwd });
    return at.cwd;
  }
  if (at.unknownArgs) {
    effects.push({
      type: "opaque",
      what: `'${name}' given paths by xargs`,
      instead: `name the files to ${name} on its command line`,
    });
    return at.cwd;
  }
  const by = name === "sed" ? "sed -i" : name;
  for (const path of targets) effects.push({ type: "write", path, cwd: at.cwd, by });
  return at.cwd;
}

/** `git`: its reading subcommands run anywhere; the others are decided by where they run. */
function git(args: readonly ShellWord[], at: Run): void {
  let cwd = at.cwd;
  let i = 0;
  for (; i < args.length && args[i]!.text.startsWith("-"); i++) {
    const a = args[i]!.text;
    if (a === "-C") cwd = moveTo(cwd, args[++i] ?? { text: "", literal: false, substitutions: [] });
    else if (a === "-c") i++;
    else if (/^--(git-dir|work-tree)/.test(a)) cwd = undefined;
  }
  const command = args[i]?.text ?? "";
  if (gitReads(command, args.slice(i + 1).map((a) => a.text))) return;
  at.walk.effects.push({ type: "run", program: `git ${command}`.trim(), cwd });
}

/** Whether a deno command line only reads (`deno --version`, `deno check`, `deno info`). */
function denoReads(args: readonly string[]): boolean {
  const command = args.find((a) => !a.startsWith("-"));
  return command === undefined ||
    ["check", "info", "doc", "help", "types", "completions", "lsp"].includes(command) ||
    (command === "fmt" && args.includes("--check")) ||
    (command === "lint" && !args.includes("--fix"));
}

/** The words after the options of a wrapper, `valued` naming the options that take a value. */
function afterOptions(args: readonly ShellWord[], valued: ReadonlySet<string>): ShellWord[] {
  let i = 0;
  while (i < args.length && args[i]!.text.startsWith("-") && args[i]!.text !== "-") {
    const option = args[i]!.text;
    i++;
    if (option === "--") break;
    if (valued.has(option)) i++;
  }
  return args.slice(i);
}

/** The options of each wrapper that take a value. */
const wrapperValued: Record<string, string[]> = {
  time: ["-f", "-o", "--format", "--output"],
  nice: ["-n", "--adjustment"],
  timeout: ["-s", "-k", "--signal", "--kill-after"],
  exec: ["-a"],
  sudo: [
    "-u",
    "-g",
    "-h",
    "-p",
    "-C",
    "-D",
    "-U",
    "-r",
    "-t",
    "--user",
    "--group",
    "--host",
    "--prompt",
    "--close-from",
    "--chdir",
    "--other-user",
    "--role",
    "--type",
  ],
  stdbuf: ["-i", "-o", "-e"],
  ionice: ["-c", "-n", "-p", "-P", "-u"],
  doas: ["-u", "-C"],
  watch: ["-n", "--interval", "-q", "--equexit"],
};

/** A wrapper (`time`, `nice`, `timeout`, `sudo` …): the command it runs. */
function wrapped(name: string, args: readonly ShellWord[], at: Run): Cwd {
  if (name === "command" && args.some((a) => a.text === "-v" || a.text === "-V")) return at.cwd;
  if (name === "time") {
    const output = args.findIndex((a) => a.text === "-o" || a.text === "--output");
    if (output !== -1 && args[output + 1] !== undefined) {
      at.walk.effects.push({ type: "write", path: args[output + 1]!, cwd: at.cwd, by: "time -o" });
    }
  }
  let rest = afterOptions(args, new Set(wrapperValued[name] ?? []));
  if (name === "timeout") rest = rest.slice(1); // the duration
  if (name !== "sudo") return run(rest, at);
  return sudo(args, rest, at);
}

/** `sudo`: the command after its assignments, run in the directory of `-D` (`--chdir`). */
function sudo(args: readonly ShellWord[], words: ShellWord[], at: Run): Cwd {
  const rest = words.filter((_, i) => i > 0 || !/^[A-Za-z_]\w*=/.test(words[0]!.text));
  const chdir = args.findIndex((a) => a.text === "-D" || a.text === "--chdir");
  const inline = args.find((a) => a.text.startsWith("--chdir="));
  const dir = chdir !== -1
    ? args[chdir + 1]
    : inline && { ...inline, text: inline.text.slice("--chdir=".length) };
  if (dir === undefined) return run(rest, at);
  run(rest, { ...at, cwd: moveTo(at.cwd, dir) });
  return at.cwd;
}

/** The directory `dir` names from `cwd`; undefined when the hook cannot tell. */
function moveTo(cwd: Cwd, dir: ShellWord): Cwd {
  if (!dir.literal || dir.pattern || (cwd === undefined && !isAbsolute(dir.text))) return undefined;
  return resolve(cwd ?? "/", dir.text);
}

function env(args: readonly ShellWord[], at: Run): Cwd {
  let cwd = at.cwd;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!.text;
    if (a === "--") {
      i++;
      break;
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) continue;
    if (!a.startsWith("-")) break;
    const chdir = a === "-C" || a === "--chdir" ? args[++i] : undefined;
    const inline = /^--chdir=(.*)$/.exec(a)?.[1] ?? (/^-C(.+)$/.exec(a)?.[1]);
    if (chdir !== undefined || inline !== undefined) {
      const dir = chdir ?? { text: inline!, literal: args[i]!.literal, substitutions: [] };
      cwd = moveTo(cwd, dir);
    } else if (
      a === "-S" || a === "--split-string" || a.startsWith("--split-string=") || /^-S./.test(a)
    ) {
      const split = a === "-S" || a === "--split-string"
        ? args[++i]?.text ?? ""
        : a.replace(/^--split-string=|^-S/, "");
      const words = parseShell(split).pipelines[0]?.elements[0];
      const more = words?.type === "command" ? [...words.assignments, ...words.words] : [];
      return env([...more, ...args.slice(i + 1)], { ...at, cwd });
    } else if (a === "-u" || a === "--unset") i++;
  }
  run(args.slice(i), { ...at, cwd });
  return at.cwd;
}

function shell(name: string, args: readonly ShellWord[], at: Run): void {
  let commandMode = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!.text;
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a === "-o" || a === "+o" || a === "--rcfile" || a === "--init-file") i++;
    else if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith("-") && a.includes("c")) commandMode = true;
    } else if (!a.startsWith("--")) break;
  }
  const operand = args[i];
  if (commandMode) {
    if (operand === undefined || !operand.literal || operand.pattern) {
      at.walk.effects.push({
        type: "opaque",
        what: `'${name} -c' with a command the shell expands`,
        instead: "write the command out",
      });
      return;
    }
    walkInto(parseShell(operand.text), at.cwd, at.walk);
  } else if (operand === undefined) {
    if (at.stdin.from === "document") walkInto(parseShell(at.stdin.text), at.cwd, at.walk);
    else if (at.stdin.from === "pipe") {
      at.walk.effects.push({
        type: "opaque",
        what: `commands piped into '${name}'`,
        instead: "run the commands directly",
      });
    }
  }
  // A script file run by the shell: not read (docs/workflow.md says so), decided by where it runs.
  if (!commandMode && operand !== undefined) {
    at.walk.effects.push({ type: "run", program: `${name} ${operand.text}`, cwd: at.cwd });
  }
}

/** `find`: with `-delete`, or `-exec` of a file-changing command, it writes under its paths. */
function find(args: readonly ShellWord[], at: Run): void {
  const start = args.findIndex((a) => /^[-(!]/.test(a.text));
  const roots = start === -1 ? args : args.slice(0, start);
  const paths = roots.length > 0 ? roots : [{ text: ".", literal: true, substitutions: [] }];
  let by: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.text;
    if (a === "-delete") by = "find -delete";
    if (["-exec", "-execdir", "-ok", "-okdir"].includes(a)) {
      const end = args.findIndex((w, j) => j > i && (w.text === ";" || w.text === "+"));
      const command = args.slice(i + 1, end === -1 ? undefined : end);
      const fake: Walk = { effects: [], depth: at.walk.depth + 1 };
      run(command, { ...at, walk: fake, stdin: { from: "none" } });
      if (fake.effects.some((e) => e.type === "write")) by = `find ${a} ${command[0]?.text}`;
      at.walk.effects.push(...fake.effects.filter((e) => e.type !== "write"));
      i = end === -1 ? args.length : end;
    }
  }
  if (by !== undefined) {
    for (const path of paths) at.walk.effects.push({ type: "write", path, cwd: at.cwd, by });
  }
}
