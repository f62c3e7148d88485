import { isAbsolute, relative, resolve } from "node:path";
import { generatorKinds, sharedFilesGiven } from "../generators/catalog.ts";
import { generatorInvocations } from "./generator_invocations.ts";

/** What Claude Code sends a PreToolUse hook on stdin (the fields the decision reads). */
export interface PreToolUseInput {
  readonly cwd?: string;
  /**
   * The agent running the tool: Claude Code sets it (with `agent_id`) when the tool call comes
   * from a subagent, and on the main thread of a session started with `claude --agent <name>`;
   * absent on an ordinary main thread. A plugin's agent is named `<plugin>:<agent>`
   * (`kit:context-builder`).
   */
  readonly agent_type?: string;
  /** The subagent's id, when the tool call comes from a subagent. */
  readonly agent_id?: string;
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

/** The agent the hook confines: the plugin's `context-builder` (`kit:context-builder`). */
export const confinedAgent = "context-builder";

/** Whether the tool call comes from the context-builder agent (from its `agent_type`). */
export function isConfinedAgent(input: PreToolUseInput): boolean {
  const agent = input.agent_type;
  return agent === confinedAgent || (agent?.endsWith(`:${confinedAgent}`) ?? false);
}

/**
 * Decides a tool call inside a worker's scope. Only the context-builder agent is confined (the
 * input's `agent_type`); any other agent, and the person's own session, are let through. File
 * writes (Write, Edit, MultiEdit, NotebookEdit) are allowed only under `src/contexts/<context>/`
 * and `test/e2e/<context>/` (the end-to-end specs of its slices); a shell command may not change
 * dependencies, nor run a generator that may write outside its context however kit is invoked
 * (`kit generate`, `deno run -A <checkout>/cli/main.ts generate`,
 * `deno run -A jsr:@kit/cli@<version> generate`, `deno task kit generate`): the kinds that always
 * do, and the others given the option that makes them (`route-group --role`), as the catalog
 * says. A generator run with `--local-only` is let through: the CLI then refuses it exactly when
 * its plan changes a file outside the context. Anything else is allowed: the confinement is a
 * guard rail for the agent, not a sandbox.
 *
 * @example
 * ```ts
 * import { decidePreToolUse } from "./pre_tool_use.ts";
 * decidePreToolUse(
 *   {
 *     agent_type: "kit:context-builder",
 *     tool_name: "Write",
 *     tool_input: { file_path: "/w/src/platform/x.ts" },
 *   },
 *   { root: "/w", context: "scheduling" },
 * ); // { allow: false, reason: "..." }
 * ```
 */
export function decidePreToolUse(input: PreToolUseInput, scope: WorkerScope): Decision {
  if (!isConfinedAgent(input)) return allow;
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
  for (const run of generatorInvocations(command)) {
    if (run.options.has("--local-only")) continue;
    const kind = generatorKinds.find((k) => k.kind === run.kind);
    if (kind === undefined) continue;
    const files = sharedFilesGiven(kind, run.options);
    if (files.length > 0) {
      return deny(
        `kit generate ${run.kind} ${
          kind.writesShared ? "writes" : `with ${kind.sharedWhen} may write`
        } outside the context (${files.join(", ")}): not in a worker's scope; ask the conductor, ` +
          `or run it with --local-only, which refuses it exactly when it writes outside the context`,
      );
    }
  }
  return allow;
}

function deny(reason: string): Decision {
  return { allow: false, reason };
}
