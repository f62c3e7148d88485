/**
 * What a `deno` command line does that the pre-tool-use hook decides on: dependency changes,
 * inline code, the files `deno compile` writes, and kit run as a module (`deno run`, `deno x`,
 * `deno <module>`) or as a task (`deno task [--cwd <dir>] kit`).
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "node:path";
import type { CommandEffect } from "./command_effects.ts";
import { isKitModule } from "./known_programs.ts";
import type { ShellWord } from "./shell_words.ts";
import { dot, splitArgs } from "./write_targets.ts";

/** Where and how a `deno` command runs. */
export interface DenoRun {
  /** Its working directory; undefined when the hook cannot tell. */
  readonly cwd: string | undefined;
  /** Whether its input is fed (a pipe, a here-document). */
  readonly fed: boolean;
  /** Arguments are added that the line does not show (`xargs deno …`). */
  readonly unknownArgs: boolean;
  /** Reads a command line it runs (`deno task --eval <line>`) from `cwd`. */
  readonly runLine: (line: string, cwd: string | undefined) => void;
}

/** `deno`: dependency changes, inline code, and kit run as a module or a task. */
export function denoEffects(args: readonly ShellWord[], at: DenoRun): CommandEffect[] {
  const text = args.map((a) => a.text);
  const sub = text.findIndex((a) => !a.startsWith("-"));
  const command = text[sub];
  const rest = args.slice(sub + 1);
  if (changesDependencies(command, rest)) {
    return [{ type: "dependencies", command: ["deno", ...text].join(" ") }];
  }
  if (command === "compile" || command === "bundle") return compiledOutput(command, rest, at);
  if (
    command === "repl" || moduleWords(args, sub, command).some((a) => a.text.startsWith("data:"))
  ) {
    return [inlineCode(`inline code run by 'deno ${command}'`)];
  }
  if (command === "eval") return [inlineCode("inline code run by 'deno eval'")];
  if (command === "task") return denoTask(rest, at);
  if (
    command === "run" || command === "x" ||
    (command !== undefined && /\.[cm]?[jt]sx?$|^(jsr|npm|https?|file):/.test(command))
  ) {
    return moduleRun(moduleWords(args, sub, command), command, at);
  }
  return [];
}

/** `deno add`, `remove`, `uninstall`, `install <packages>` and `outdated --update`. */
function changesDependencies(command: string | undefined, rest: readonly ShellWord[]): boolean {
  return command === "add" || command === "remove" || command === "uninstall" ||
    (command === "install" && rest.length > 0) ||
    (command === "outdated" && rest.some((a) => a.text === "--update" || a.text === "-u"));
}

/** `deno compile` and `deno bundle`: the files they write. */
function compiledOutput(
  command: "compile" | "bundle",
  rest: readonly ShellWord[],
  at: DenoRun,
): CommandEffect[] {
  const { values } = splitArgs(
    rest,
    new Set(["-o", "--output", "--outdir", "--target", "--include", "-c", "--config"]),
  );
  const out = values.get("-o") ?? values.get("--output") ?? values.get("--outdir") ??
    (command === "compile" ? [dot] : undefined);
  return (out ?? []).map((path) => ({ type: "write", path, cwd: at.cwd, by: `deno ${command}` }));
}

function inlineCode(what: string): CommandEffect {
  return {
    type: "opaque",
    what,
    instead: "change files with the Write and Edit tools, and read with cat, grep or jq",
  };
}

/**
 * `deno run`, `deno x`, `deno <module>`: kit run as a module, a module the shell expands, or code
 * fed on the input.
 */
function moduleRun(
  module: readonly ShellWord[],
  command: string | undefined,
  at: DenoRun,
): CommandEffect[] {
  const kit = module.findIndex((a) => isKitModule(a.text, at.cwd));
  const script = module.find((a) => !a.text.startsWith("-"));
  if (kit === -1 && script !== undefined && (!script.literal || script.pattern)) {
    return [{
      type: "opaque",
      what: `a module the shell expands ('${script.text}') run by deno`,
      instead: "write the module's path out",
    }];
  }
  if (kit !== -1) {
    return [{ type: "kit", args: module.slice(kit + 1), cwd: at.cwd, unknownArgs: at.unknownArgs }];
  }
  if (
    module.some((a) => a.text === "-") ||
    (command !== "x" && !module.some((a) => !a.text.startsWith("-")) && at.fed)
  ) {
    return [inlineCode("code fed to 'deno run' on its input")];
  }
  return [];
}

/** The words from a deno command's module on (`deno run [flags] <module> …`, `deno <module> …`). */
function moduleWords(
  args: readonly ShellWord[],
  sub: number,
  command: string | undefined,
): readonly ShellWord[] {
  return command === "run" || command === "x" ? args.slice(sub + 1) : args.slice(sub);
}

/** `deno task [--cwd <dir>] [--config <file>] kit …`, and `deno task --eval <line>`. */
function denoTask(args: readonly ShellWord[], at: DenoRun): CommandEffect[] {
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
      const line = args.slice(i + 1);
      if (line.some((w) => !w.literal)) {
        return [{
          type: "opaque",
          what: "'deno task --eval' given a command the shell expands",
          instead: "write the command out",
        }];
      }
      at.runLine(line.map((w) => w.text).join(" "), cwd);
      return [];
    }
  }
  if (args[i]?.text !== "kit") return [];
  return [{
    type: "kit",
    args: args.slice(args[i + 1]?.text === "--" ? i + 2 : i + 1),
    cwd,
    unknownArgs: at.unknownArgs,
  }];
}
