/**
 * What a parsed command line does that the pre-tool-use hook decides on: the files it writes (by
 * redirection, `tee`, `sed -i`, `cp`, `mv`, `rm`, `touch` and their kind), the runs of kit, the
 * dependency changes, and what the hook cannot read. Wrappers (`env`, `time`, `nice`, `timeout`,
 * `nohup`, `command`, `exec`, `sudo`, `xargs`, `sh -c`, `bash -c`) are seen through, and the working
 * directory is followed through `cd`, `pushd`, `env -C` and `deno task --cwd`.
 *
 * @module
 */

import { basename, dirname, isAbsolute, resolve } from "node:path";
import { parseShell, type ShellList, type ShellWord, type SimpleCommand } from "./shell_words.ts";

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
  if (!program.literal) {
    effects.push({
      type: "opaque",
      what: `a command name the shell expands ('${program.text}')`,
      instead: "write the command name out",
    });
    return at.cwd;
  }
  const name = basename(program.text);
  const text = args.map((a) => a.text);
  switch (name) {
    case "cd":
    case "pushd": {
      const target = args.find((a) => !a.text.startsWith("-") || a.text === "-");
      if (target === undefined || !target.literal || target.text === "-") return undefined;
      return at.cwd === undefined && !isAbsolute(target.text)
        ? undefined
        : resolve(at.cwd ?? "/", target.text);
    }
    case "popd":
      return undefined;
    case "eval":
      effects.push({
        type: "opaque",
        what: "'eval'",
        instead: "write the command out without eval",
      });
      return at.cwd;
    case "env":
      return env(args, at);
    case "time":
    case "nice":
    case "nohup":
    case "timeout":
    case "command":
    case "builtin":
    case "exec":
    case "sudo":
    case "stdbuf":
    case "ionice":
    case "busybox":
    case "setsid":
    case "doas":
    case "unbuffer":
    case "watch":
    case "coproc":
      return wrapped(name, args, at);
    case "trap":
    case "su":
    case "runuser":
    case "script":
    case "flock": {
      const line = name === "trap"
        ? args.find((a) => !a.text.startsWith("-"))
        : args[args.findIndex((a) => a.text === "-c" || a.text === "--command") + 1];
      const runs = (name === "trap" && line !== undefined) ||
        args.some((a) => a.text === "-c" || a.text === "--command");
      if (runs && (line === undefined || !line.literal)) {
        effects.push({
          type: "opaque",
          what: `'${name}' given a command the shell expands`,
          instead: "write the command out",
        });
      } else if (runs) walkInto(parseShell(line!.text), at.cwd, at.walk);
      else if (name === "flock") {
        run(args.slice(1 + args.findIndex((a) => !a.text.startsWith("-"))), at);
      }
      return at.cwd;
    }
    case "xargs": {
      const command = afterOptions(args, new Set(["-n", "-I", "-L", "-P", "-d", "-a", "-s", "-E"]));
      if (command.length === 0) return at.cwd; // echo
      return run(command, { ...at, stdin: { from: "none" }, unknownArgs: true });
    }
    case "deno":
      deno(args, at);
      return at.cwd;
    case "kit":
      effects.push({ type: "kit", args, cwd: at.cwd, unknownArgs: at.unknownArgs });
      return at.cwd;
    case "find":
      find(args, at);
      return at.cwd;
  }
  if (shells.has(name)) {
    shell(name, args, at);
    return at.cwd;
  }
  const inline = inlineCode(name, text, at.stdin);
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
  if (targets === undefined) return at.cwd;
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

function wrapped(name: string, args: readonly ShellWord[], at: Run): Cwd {
  const valued: Record<string, string[]> = {
    time: ["-f", "-o", "--format", "--output"],
    nice: ["-n", "--adjustment"],
    timeout: ["-s", "-k", "--signal", "--kill-after"],
    exec: ["-a"],
    sudo: ["-u", "-g", "-h", "-p", "-C", "-D", "-U", "-r", "-t"],
    stdbuf: ["-i", "-o", "-e"],
    ionice: ["-c", "-n", "-p", "-P", "-u"],
    doas: ["-u", "-C"],
    watch: ["-n", "--interval", "-d", "-q", "--equexit"],
  };
  if (name === "command" && args.some((a) => a.text === "-v" || a.text === "-V")) return at.cwd;
  if (name === "time") {
    const output = args.findIndex((a) => a.text === "-o" || a.text === "--output");
    if (output !== -1 && args[output + 1] !== undefined) {
      at.walk.effects.push({ type: "write", path: args[output + 1]!, cwd: at.cwd, by: "time -o" });
    }
  }
  let rest = afterOptions(args, new Set(valued[name] ?? []));
  if (name === "timeout") rest = rest.slice(1); // the duration
  if (name === "sudo") rest = rest.filter((_, i) => i > 0 || !/^[A-Za-z_]\w*=/.test(rest[0]!.text));
  return run(rest, at);
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
      cwd = dir.literal && (cwd !== undefined || isAbsolute(dir.text))
        ? resolve(cwd ?? "/", dir.text)
        : undefined;
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
    if (operand === undefined || !operand.literal) {
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
  // A script file run by the shell: not read (docs/workflow.md says so).
}

/** The inline code an interpreter is given (`python -c`, `node -e`), described; else undefined. */
function inlineCode(name: string, args: readonly string[], stdin: Stdin): string | undefined {
  const flags: Record<string, RegExp> = {
    python: /^-[A-Za-z]*c/,
    node: /^(-e|--eval|-p|--print|-pe)$|^--(eval|print)=/,
    nodejs: /^(-e|--eval|-p|--print|-pe)$|^--(eval|print)=/,
    bun: /^(-e|--eval|-p|--print)$|^--(eval|print)=/,
    perl: /^-[lnpaiws0-9]*[eE]/,
    ruby: /^-[a-z]*e/,
    php: /^-r$/,
    lua: /^-e$/,
    osascript: /^-e$/,
  };
  const key = /^python[0-9.]*$/.test(name) ? "python" : name;
  const flag = flags[key];
  if (flag === undefined) return undefined;
  if (args.some((a) => flag.test(a))) return `inline code run by '${name}'`;
  const script = args.find((a) => !a.startsWith("-"));
  const usesModule = key === "python" && args.some((a) => /^-[A-Za-z]*m/.test(a));
  if ((script === undefined || script === "-") && !usesModule && stdin.from !== "none") {
    return `code fed to '${name}' on its input`;
  }
  return undefined;
}

/** The arguments of kit run by a package manager (`npm run kit -- …`, `npx kit …`), if it is. */
function packageRunnerKit(name: string, args: readonly ShellWord[]): ShellWord[] | undefined {
  const runners = ["npx", "pnpx", "bunx"].includes(name) ? 0 : -1;
  const first = args.findIndex((a) => !a.text.startsWith("-"));
  let at = runners === 0 ? first : -1;
  if (["npm", "pnpm", "yarn", "bun"].includes(name) && first !== -1) {
    const sub = args[first]!.text;
    at = ["run", "run-script", "exec", "x", "dlx"].includes(sub)
      ? args.findIndex((a, i) => i > first && !a.text.startsWith("-"))
      : sub === "kit" && name !== "npm"
      ? first
      : -1;
  }
  const program = args[at];
  if (program === undefined || !(program.text === "kit" || isKitModule(program.text, undefined))) {
    return undefined;
  }
  const rest = args.slice(at + 1);
  return rest[0]?.text === "--" ? rest.slice(1) : rest;
}

const dependencyWords: Record<string, RegExp> = {
  npm: /^(install|i|add|remove|rm|uninstall|un|update|upgrade|up|ci|pkg|version|init|link)$/,
  pnpm: /^(install|i|add|remove|rm|uninstall|un|update|upgrade|up)$/,
  yarn: /^(install|add|remove|upgrade|up)$/,
  bun: /^(install|i|add|a|remove|rm|update)$/,
};

function dependencyChange(name: string, args: readonly string[]): boolean {
  const first = args.find((a) => !a.startsWith("-"));
  if (dependencyWords[name]?.test(first ?? "")) return true;
  if (name === "npx" || name === "bunx" || name === "pnpx") {
    return ["npm-check-updates", "ncu"].includes(first ?? "");
  }
  return false;
}

/** The paths a file-changing command writes, or undefined when it is not one. */
function writeTargets(name: string, args: readonly ShellWord[]): ShellWord[] | undefined {
  const split = (valued: string[]) => splitArgs(args, new Set(valued));
  switch (name) {
    case "tee":
    case "rm":
    case "rmdir":
    case "unlink":
    case "mkdir":
    case "shred":
      return split(["-m", "--mode", "-n", "-s", "--iterations", "--size"]).positionals;
    case "touch":
    case "truncate":
      return split(["-d", "-t", "-r", "-s", "--reference", "--size", "--date"]).positionals;
    case "mv": {
      const { positionals, values } = split(["-t", "--target-directory", "-S", "--suffix"]);
      return [...positionals, ...(values.get("-t") ?? values.get("--target-directory") ?? [])];
    }
    case "ln": {
      const { positionals, values } = split(["-t", "--target-directory", "-S", "--suffix"]);
      return [...positionals, ...(values.get("-t") ?? values.get("--target-directory") ?? [])];
    }
    case "cp":
    case "scp":
    case "install":
    case "rsync": {
      const { positionals, values, flags } = split([
        "-t",
        "--target-directory",
        "-S",
        "--suffix",
        "-m",
        "--mode",
        "-o",
        "--owner",
        "-g",
        "--group",
        "-e",
      ]);
      const target = values.get("-t") ?? values.get("--target-directory");
      if (target !== undefined) return target;
      if (name === "install" && flags.has("-d")) return positionals;
      return positionals.slice(-1);
    }
    case "chmod":
    case "chown":
    case "chgrp": {
      const { positionals, values } = split([]);
      return values.has("--reference") ? positionals : positionals.slice(1);
    }
    case "dd":
      return args.filter((a) => a.text.startsWith("of=")).map((a) => ({
        ...a,
        text: a.text.slice(3),
      }));
    case "mkfifo":
      return split(["-m", "--mode"]).positionals;
    case "tar":
      return tarTargets(args);
    case "unzip":
      return [split(["-d", "-x"]).values.get("-d")?.[0] ?? dot];
    case "sed":
      return sedInPlace(args);
    case "sort":
      return split(["-o", "--output", "-k", "-t", "-S", "-T"]).values.get("-o") ??
        split(["-o", "--output", "-k", "-t", "-S", "-T"]).values.get("--output");
    case "ed":
    case "ex":
      return split(["-c", "-p"]).positionals;
    case "curl": {
      const { values, flags } = split(["-o", "--output", "--output-dir"]);
      const remoteName = flags.has("-O") || flags.has("--remote-name") ||
        flags.has("--remote-name-all");
      const dir = values.get("--output-dir") ?? [dot];
      const out = [...(values.get("-o") ?? []), ...(values.get("--output") ?? [])];
      const written = [...out, ...(remoteName ? dir : [])].filter((path) => path.text !== "-");
      return written.length > 0 ? written : undefined;
    }
    case "wget": {
      const { values } = split(["-O", "--output-document", "-P", "--directory-prefix"]);
      const out = values.get("-O") ?? values.get("--output-document");
      if (out !== undefined) return out.filter((path) => path.text !== "-");
      return values.get("-P") ?? values.get("--directory-prefix") ?? [dot];
    }
  }
  return undefined;
}

const dot: ShellWord = { text: ".", literal: true, substitutions: [] };

/** `tar`: the archive it creates, or the directory it extracts into. */
function tarTargets(args: readonly ShellWord[]): ShellWord[] | undefined {
  const first = args[0]?.text ?? "";
  const cluster = /^-?[A-Za-z]+$/.test(first) && !first.startsWith("--") ? first : "";
  const long = new Set(args.map((a) => a.text.split("=")[0]));
  const has = (letter: string, option: string) =>
    cluster.replace(/^-/, "").includes(letter) ||
    args.some((a) => a.text === `-${letter}`) || long.has(option);
  const { values } = splitArgs(
    args.slice(cluster === "" ? 0 : 1),
    new Set(["-C", "-f", "--directory", "--file"]),
  );
  if (has("x", "--extract") || has("x", "--get")) {
    return values.get("-C") ?? values.get("--directory") ?? [dot];
  }
  if (has("c", "--create") || has("r", "--append") || has("u", "--update")) {
    const archive = values.get("-f") ?? values.get("--file");
    if (archive !== undefined) return archive;
    // `tar cf out.tar …`: the archive is the first operand after the cluster.
    return cluster.includes("f") ? args.slice(1, 2) : undefined;
  }
  return undefined;
}

/** Options and operands of a command line, `valued` naming the options that take a value. */
function splitArgs(args: readonly ShellWord[], valued: ReadonlySet<string>) {
  const positionals: ShellWord[] = [];
  const values = new Map<string, ShellWord[]>();
  const flags = new Set<string>();
  const add = (option: string, value: ShellWord) =>
    values.set(option, [...(values.get(option) ?? []), value]);
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const a = word.text;
    if (!options || !a.startsWith("-") || a === "-") positionals.push(word);
    else if (a === "--") options = false;
    else if (a.startsWith("--")) {
      const [option, ...value] = a.split("=");
      if (value.length > 0) add(option!, { ...word, text: value.join("=") });
      else if (valued.has(option!) && args[i + 1] !== undefined) add(option!, args[++i]!);
      else flags.add(option!);
    } else {
      for (let j = 1; j < a.length; j++) {
        const option = `-${a[j]}`;
        if (!valued.has(option)) {
          flags.add(option);
          continue;
        }
        const rest = a.slice(j + 1);
        if (rest !== "") add(option, { ...word, text: rest });
        else if (args[i + 1] !== undefined) add(option, args[++i]!);
        break;
      }
    }
  }
  return { positionals, values, flags };
}

/** The files `sed` edits in place (`-i`, `-i.bak`, `--in-place`), or undefined without it. */
function sedInPlace(args: readonly ShellWord[]): ShellWord[] | undefined {
  let inPlace = false;
  let scriptGiven = false;
  const operands: ShellWord[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.text;
    if (!options || !a.startsWith("-") || a === "-") {
      operands.push(args[i]!);
      continue;
    }
    if (a === "--") options = false;
    else if (a.startsWith("--in-place")) inPlace = true;
    else if (a === "--expression" || a === "--file") {
      scriptGiven = true;
      i++;
    } else if (a.startsWith("--expression=") || a.startsWith("--file=")) scriptGiven = true;
    else if (a.startsWith("--")) continue;
    else {
      for (let j = 1; j < a.length; j++) {
        const letter = a[j];
        if (letter === "i") {
          inPlace = true;
          break; // the rest is the backup suffix
        }
        if (letter === "e" || letter === "f" || letter === "l") {
          if (letter !== "l") scriptGiven = true;
          if (j === a.length - 1) i++;
          break;
        }
      }
    }
  }
  if (!inPlace) return undefined;
  // BSD sed: `sed -i '' 's/a/b/' file`, the empty word being the backup suffix.
  const files = operands[0]?.text === "" && operands.length > 2 ? operands.slice(1) : operands;
  return scriptGiven ? files : files.slice(1);
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

/** `deno`: dependency changes, inline code, and kit run as a module or a task. */
function deno(args: readonly ShellWord[], at: Run): void {
  const { effects } = at.walk;
  const text = args.map((a) => a.text);
  const sub = text.findIndex((a) => !a.startsWith("-"));
  const command = text[sub];
  const rest = args.slice(sub + 1);
  if (command === "add" || command === "remove" || command === "uninstall") {
    effects.push({ type: "dependencies", command: ["deno", ...text].join(" ") });
  } else if (command === "install" && rest.length > 0) {
    effects.push({ type: "dependencies", command: ["deno", ...text].join(" ") });
  } else if (command === "outdated" && rest.some((a) => a.text === "--update" || a.text === "-u")) {
    effects.push({ type: "dependencies", command: ["deno", ...text].join(" ") });
  } else if (command === "compile" || command === "bundle") {
    const { values } = splitArgs(
      rest,
      new Set(["-o", "--output", "--outdir", "--target", "--include", "-c", "--config"]),
    );
    const out = values.get("-o") ?? values.get("--output") ?? values.get("--outdir") ??
      (command === "compile" ? [dot] : undefined);
    for (const path of out ?? []) {
      effects.push({ type: "write", path, cwd: at.cwd, by: `deno ${command}` });
    }
  } else if (
    command === "repl" || moduleWords(args, sub, command).some((a) => a.text.startsWith("data:"))
  ) {
    effects.push({
      type: "opaque",
      what: `inline code run by 'deno ${command}'`,
      instead: "change files with the Write and Edit tools, and read with cat, grep or jq",
    });
  } else if (command === "eval") {
    effects.push({
      type: "opaque",
      what: "inline code run by 'deno eval'",
      instead: "change files with the Write and Edit tools, and read with cat, grep or jq",
    });
  } else if (command === "task") {
    denoTask(rest, at);
  } else if (
    command === "run" || command === "x" ||
    (command !== undefined && /\.[cm]?[jt]sx?$|^(jsr|npm|https?|file):/.test(command))
  ) {
    const module = moduleWords(args, sub, command);
    const kit = module.findIndex((a) => isKitModule(a.text, at.cwd));
    const script = module.find((a) => !a.text.startsWith("-"));
    if (kit === -1 && script !== undefined && !script.literal) {
      effects.push({
        type: "opaque",
        what: `a module the shell expands ('${script.text}') run by deno`,
        instead: "write the module's path out",
      });
    } else if (kit !== -1) {
      effects.push({
        type: "kit",
        args: module.slice(kit + 1),
        cwd: at.cwd,
        unknownArgs: at.unknownArgs,
      });
    } else if (
      module.some((a) => a.text === "-") ||
      (command !== "x" && !module.some((a) => !a.text.startsWith("-")) && at.stdin.from !== "none")
    ) {
      effects.push({
        type: "opaque",
        what: "code fed to 'deno run' on its input",
        instead: "change files with the Write and Edit tools, and read with cat, grep or jq",
      });
    }
  }
}

/** The words from a deno command's module on (`deno run [flags] <module> …`, `deno <module> …`). */
function moduleWords(args: readonly ShellWord[], sub: number, command: string | undefined) {
  return command === "run" || command === "x" ? args.slice(sub + 1) : args.slice(sub);
}

function denoTask(args: readonly ShellWord[], at: Run): void {
  let cwd = at.cwd;
  let i = 0;
  for (; i < args.length && args[i]!.text.startsWith("-"); i++) {
    const a = args[i]!.text;
    const value = (option: string) =>
      a === option ? args[++i] : { ...args[i]!, text: a.slice(option.length + 1) };
    const dirOf = (word: ShellWord | undefined, config: boolean) =>
      word === undefined || !word.literal || (cwd === undefined && !isAbsolute(word.text))
        ? undefined
        : config
        ? dirname(resolve(cwd ?? "/", word.text))
        : resolve(cwd ?? "/", word.text);
    if (a === "--cwd" || a.startsWith("--cwd=")) cwd = dirOf(value("--cwd"), false);
    else if (a === "-c" || a === "--config") cwd = dirOf(args[++i], true);
    else if (a.startsWith("--config=")) cwd = dirOf(value("--config"), true);
    else if (a === "-f" || a === "--filter") i++;
    else if (a === "--eval") {
      const line = args[i + 1];
      if (line === undefined || !line.literal) return;
      walkInto(parseShell([line, ...args.slice(i + 2)].map((w) => w.text).join(" ")), cwd, at.walk);
      return;
    }
  }
  if (args[i]?.text === "kit") {
    at.walk.effects.push({
      type: "kit",
      args: args.slice(args[i + 1]?.text === "--" ? i + 2 : i + 1),
      cwd,
      unknownArgs: at.unknownArgs,
    });
  }
}

/** Whether a module run by deno is kit's CLI: a checkout's `cli/main.ts`, or `jsr:@kit/cli`. */
function isKitModule(word: string, cwd: Cwd): boolean {
  const path = /^[a-z]+:/.test(word) || cwd === undefined ? word : resolve(cwd, word);
  return /(^|\/)cli\/main\.ts$/.test(path) || /@kit\/cli([@/]|$)/.test(word);
}
