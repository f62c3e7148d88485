/**
 * What the pre-tool-use hook knows of programs by their names: the inline code interpreters are
 * given, the commands that change dependencies, and the names kit is run by.
 *
 * @module
 */

import { resolve } from "node:path";
import type { ShellWord } from "./shell_words.ts";

/** The inline code an interpreter is given (`python -c`, `node -e`), described; else undefined. */
export function inlineCode(
  name: string,
  args: readonly string[],
  fed: boolean,
): string | undefined {
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
  if ((script === undefined || script === "-") && !usesModule && fed) {
    return `code fed to '${name}' on its input`;
  }
  return undefined;
}

/** The arguments of kit run by a package manager (`npm run kit -- …`, `npx kit …`), if it is. */
export function packageRunnerKit(
  name: string,
  args: readonly ShellWord[],
): ShellWord[] | undefined {
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

export function dependencyChange(name: string, args: readonly string[]): boolean {
  const first = args.find((a) => !a.startsWith("-"));
  if (dependencyWords[name]?.test(first ?? "")) return true;
  if (name === "npx" || name === "bunx" || name === "pnpx") {
    return ["npm-check-updates", "ncu"].includes(first ?? "");
  }
  return false;
}

/** Whether a module run by deno is kit's CLI: a checkout's `cli/main.ts`, or `jsr:@kit/cli`. */
export function isKitModule(word: string, cwd: string | undefined): boolean {
  const path = /^[a-z]+:/.test(word) || cwd === undefined ? word : resolve(cwd, word);
  return /(^|\/)cli\/main\.ts$/.test(path) || /@kit\/cli([@/]|$)/.test(word);
}

/**
 * Programs that change no file of their own choosing: run anywhere. (The files a program names on
 * its command line, `cp` or `tee`, are decided one by one; wrappers and kit are seen through.)
 */
export const readers: ReadonlySet<string> = new Set([
  ":",
  "[",
  "[[",
  "alias",
  "basename",
  "cat",
  "cmp",
  "column",
  "comm",
  "curl",
  "cut",
  "date",
  "declare",
  "df",
  "diff",
  "dirname",
  "dirs",
  "du",
  "echo",
  "egrep",
  "exit",
  "export",
  "false",
  "fgrep",
  "file",
  "grep",
  "hash",
  "head",
  "hexdump",
  "hostname",
  "id",
  "jobs",
  "jq",
  "kill",
  "less",
  "local",
  "ls",
  "md5sum",
  "mktemp",
  "more",
  "nl",
  "od",
  "pgrep",
  "printenv",
  "printf",
  "ps",
  "pwd",
  "read",
  "readlink",
  "realpath",
  "return",
  "rg",
  "seq",
  "set",
  "sha1sum",
  "sha256sum",
  "shasum",
  "shift",
  "sleep",
  "sort",
  "stat",
  "tail",
  "test",
  "tr",
  "tree",
  "true",
  "type",
  "umask",
  "uname",
  "uniq",
  "unset",
  "wait",
  "wc",
  "wget",
  "which",
  "whoami",
  "xxd",
  "yes",
  "yq",
]);

const gitReadCommands = new Set([
  "blame",
  "cat-file",
  "describe",
  "diff",
  "grep",
  "help",
  "log",
  "ls-files",
  "ls-remote",
  "ls-tree",
  "merge-base",
  "rev-list",
  "rev-parse",
  "shortlog",
  "show",
  "status",
  "version",
  "whatchanged",
]);

/** Whether `git <command> <args>` only reads the repository. */
export function gitReads(command: string, args: readonly string[]): boolean {
  if (command === "" || gitReadCommands.has(command)) return true;
  const operands = args.filter((a) => !a.startsWith("-"));
  switch (command) {
    case "branch":
    case "tag":
      return operands.length === 0 || args.some((a) => a === "--list" || a === "-l");
    case "stash":
    case "worktree":
    case "remote":
      return operands[0] === undefined || operands[0] === "list" || operands[0] === "show";
    case "config":
      return args.some((a) => /^--(get|list|get-all|get-regexp)$|^-l$/.test(a));
  }
  return false;
}
