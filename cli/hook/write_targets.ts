/**
 * The files a file-changing program writes, read from its arguments: `tee`, `cp`, `mv`, `rm`,
 * `touch`, `sed -i` and their kind.
 *
 * @module
 */

import type { ShellWord } from "./shell_words.ts";

/** The paths a file-changing command writes, or undefined when it is not one. */
export function writeTargets(name: string, args: readonly ShellWord[]): ShellWord[] | undefined {
  return writers.get(name)?.(args, name);
}

/** What one program writes, from its arguments (`name` is the program's). */
type Writer = (args: readonly ShellWord[], name: string) => ShellWord[] | undefined;

/** A program writing its operands, `valued` naming its options that take a value. */
function operands(valued: string[]): Writer {
  return (args) => splitArgs(args, new Set(valued)).positionals;
}

/** `mv`, `ln`: the operands, and the target directory. */
function movedTo(args: readonly ShellWord[]): ShellWord[] {
  const { positionals, values } = splitArgs(
    args,
    new Set(["-t", "--target-directory", "-S", "--suffix"]),
  );
  return [...positionals, ...(values.get("-t") ?? values.get("--target-directory") ?? [])];
}

/** `cp`, `scp`, `install`, `rsync`: the target directory, else the last operand. */
function copiedTo(args: readonly ShellWord[], name: string): ShellWord[] {
  const { positionals, values, flags } = splitArgs(
    args,
    new Set([
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
    ]),
  );
  const target = values.get("-t") ?? values.get("--target-directory");
  if (target !== undefined) return target;
  if (name === "install" && flags.has("-d")) return positionals;
  return positionals.slice(-1);
}

/** `chmod`, `chown`, `chgrp`: the operands after the mode or owner (all with `--reference`). */
function modeChanged(args: readonly ShellWord[]): ShellWord[] {
  const { positionals, values } = splitArgs(args, new Set());
  return values.has("--reference") ? positionals : positionals.slice(1);
}

/** `dd`: its `of=` file. */
function ddOutput(args: readonly ShellWord[]): ShellWord[] {
  return args.filter((a) => a.text.startsWith("of=")).map((a) => ({
    ...a,
    text: a.text.slice(3),
  }));
}

/** `sort`: its `-o` (`--output`) file, if any. */
function sortOutput(args: readonly ShellWord[]): ShellWord[] | undefined {
  const { values } = splitArgs(args, new Set(["-o", "--output", "-k", "-t", "-S", "-T"]));
  return values.get("-o") ?? values.get("--output");
}

/** `curl`: its `-o` files, and the output directory of `-O` (`-` being standard output). */
function curlOutput(args: readonly ShellWord[]): ShellWord[] | undefined {
  const { values, flags } = splitArgs(args, new Set(["-o", "--output", "--output-dir"]));
  const remoteName = flags.has("-O") || flags.has("--remote-name") ||
    flags.has("--remote-name-all");
  const dir = values.get("--output-dir") ?? [dot];
  const out = [...(values.get("-o") ?? []), ...(values.get("--output") ?? [])];
  const written = [...out, ...(remoteName ? dir : [])].filter((path) => path.text !== "-");
  return written.length > 0 ? written : undefined;
}

/** `wget`: its `-O` file (`-` being standard output), else its directory prefix. */
function wgetOutput(args: readonly ShellWord[]): ShellWord[] {
  const { values } = splitArgs(
    args,
    new Set(["-O", "--output-document", "-P", "--directory-prefix"]),
  );
  const out = values.get("-O") ?? values.get("--output-document");
  if (out !== undefined) return out.filter((path) => path.text !== "-");
  return values.get("-P") ?? values.get("--directory-prefix") ?? [dot];
}

const removing = operands(["-m", "--mode", "-n", "-s", "--iterations", "--size"]);
const touching = operands(["-d", "-t", "-r", "-s", "--reference", "--size", "--date"]);

/** The programs that write files, each with what it writes. */
const writers: ReadonlyMap<string, Writer> = new Map<string, Writer>([
  ...["tee", "rm", "rmdir", "unlink", "mkdir", "shred"].map((n) => [n, removing] as const),
  ...["touch", "truncate"].map((n) => [n, touching] as const),
  ["mv", movedTo],
  ["ln", movedTo],
  ...["cp", "scp", "install", "rsync"].map((n) => [n, copiedTo] as const),
  ...["chmod", "chown", "chgrp"].map((n) => [n, modeChanged] as const),
  ["dd", ddOutput],
  ["mkfifo", operands(["-m", "--mode"])],
  ["tar", (args) => tarTargets(args)],
  ["unzip", (args) => [splitArgs(args, new Set(["-d", "-x"])).values.get("-d")?.[0] ?? dot]],
  ["sed", (args) => sedInPlace(args)],
  ["sort", sortOutput],
  ["ed", operands(["-c", "-p"])],
  ["ex", operands(["-c", "-p"])],
  ["curl", curlOutput],
  ["wget", wgetOutput],
]);

/** The working directory, as a word: where a program writes files it names itself. */
export const dot: ShellWord = { text: ".", literal: true, substitutions: [] };

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

/** A command line's operands, the values of its options (by option) and its flags. */
export interface SplitArgs {
  readonly positionals: ShellWord[];
  readonly values: Map<string, ShellWord[]>;
  readonly flags: Set<string>;
}

/** Options and operands of a command line, `valued` naming the options that take a value. */
export function splitArgs(args: readonly ShellWord[], valued: ReadonlySet<string>): SplitArgs {
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
