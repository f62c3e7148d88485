import { isAbsolute, relative, resolve } from "node:path";
import { generatorKinds } from "../generators/catalog.ts";

/** What Claude Code sends a PreToolUse hook on stdin (the fields the decision reads). */
export interface PreToolUseInput {
  readonly cwd?: string;
  readonly hook_event_name?: string;
  readonly tool_name?: string;
  readonly tool_input?: Readonly<Record<string, unknown>>;
}

/** The worker's scope, from `.kit/worker.json` in the worktree's root. */
export interface WorkerScope {
  /** The worktree's root (where `.kit/` is). */
  readonly root: string;
  /** The context the worker builds. */
  readonly context: string;
}

/** The hook's answer: let the tool run (the usual permissions still apply), or refuse it. */
export type Decision = { readonly allow: true } | {
  readonly allow: false;
  readonly reason: string;
};

const allow: Decision = { allow: true };
const dependencyFiles = new Set([
  "deno.json",
  "deno.jsonc",
  "deno.lock",
  "package.json",
  "package-lock.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
]);
const dependencyCommand =
  /(^|[;&|(]\s*|\s)(deno\s+(add|remove|install\s+\S)|(npm|pnpm|yarn|bun)\s+(install|i|add|remove|rm|uninstall|update|upgrade)\b|npx\s+(-y\s+)?(npm-check-updates|ncu)\b)/;
const generateCommand = /(?:\bkit|main\.ts)\s+generate\s+([a-z][a-z-]*)/g;

/**
 * Decides a tool call of the context-builder agent inside a worker's scope. File writes (Write,
 * Edit, MultiEdit, NotebookEdit) are allowed only under `src/contexts/<context>/` and
 * `test/e2e/<context>/` (the end-to-end specs of its slices); a shell command may not run a
 * generator that writes shared files, nor change dependencies. Anything else is allowed: the
 * confinement is a guard rail for the agent, not a sandbox.
 *
 * @example
 * ```ts
 * import { decidePreToolUse } from "./pre_tool_use.ts";
 * decidePreToolUse(
 *   { tool_name: "Write", tool_input: { file_path: "/w/src/platform/x.ts" } },
 *   { root: "/w", context: "scheduling" },
 * ); // { allow: false, reason: "..." }
 * ```
 */
export function decidePreToolUse(input: PreToolUseInput, scope: WorkerScope): Decision {
  const tool = input.tool_name ?? "";
  const args = input.tool_input ?? {};
  if (["Write", "Edit", "MultiEdit", "NotebookEdit"].includes(tool)) {
    const target = args.file_path ?? args.notebook_path;
    if (typeof target !== "string") return allow;
    return decideWrite(target, input.cwd ?? scope.root, scope);
  }
  if (tool === "Bash" && typeof args.command === "string") {
    return decideCommand(args.command, scope);
  }
  return allow;
}

function decideWrite(target: string, cwd: string, scope: WorkerScope): Decision {
  const path = relative(scope.root, isAbsolute(target) ? target : resolve(cwd, target));
  if (path.startsWith("..") || isAbsolute(path)) {
    return deny(`${target} is outside this worktree (${scope.root})`);
  }
  if (dependencyFiles.has(path.split("/").at(-1)!)) {
    return deny(
      `${path} holds dependencies: a worker of '${scope.context}' changes no dependency; ask the conductor`,
    );
  }
  const own = [`src/contexts/${scope.context}/`, `test/e2e/${scope.context}/`];
  if (own.some((prefix) => path.startsWith(prefix))) return allow;
  return deny(
    `${path} is outside the scope of '${scope.context}': write only ${own.join(" and ")}` +
      ` (shared files change in sequence, by the conductor)`,
  );
}

function decideCommand(command: string, scope: WorkerScope): Decision {
  if (dependencyCommand.test(command)) {
    return deny(
      `'${command.trim()}' changes dependencies: a worker of '${scope.context}' changes none; ask the conductor`,
    );
  }
  for (const [, kind] of command.matchAll(generateCommand)) {
    const found = generatorKinds.find((k) => k.kind === kind);
    if (found?.writesShared) {
      return deny(
        `kit generate ${kind} writes shared files (${found.sharedFiles.join(", ")}): ` +
          `not in a worker's scope; ask the conductor, or use a generator that stays in the context`,
      );
    }
  }
  return allow;
}

function deny(reason: string): Decision {
  return { allow: false, reason };
}
