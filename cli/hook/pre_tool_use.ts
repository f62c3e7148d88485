import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import { generatorKinds, sharedFilesGiven } from "../generators/catalog.ts";
import { type CommandEffect, commandEffects } from "./command_effects.ts";
import { generatorInvocation } from "./generator_invocations.ts";
import { parseShell, ShellSyntaxError } from "./shell_words.ts";

/** What Claude Code sends a PreToolUse hook on stdin (the fields the decision reads). */
export interface PreToolUseInput {
  readonly cwd?: string;
  /**
   * The agent running the tool (`kit:context-builder`), absent on the main thread. The decision
   * does not read it: every agent and the main thread are confined alike.
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
/** Files anyone may write: the null device and the standard streams. */
const devices = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);
/** The system's scratch directories: writable, unless the worktree itself is in one. */
const scratch = /^\/(private\/)?(tmp|var\/tmp|var\/folders)(\/|$)/;
/** The kit commands that write files; the others (status, todo, check, token) only read. */
const writingKitCommands = new Set([
  "generate",
  "docs",
  "init",
  "worker-scope",
  "resolve",
  "slice",
  "depcruise-config",
]);

/**
 * Decides a tool call inside a worker's scope, whoever makes it: the context-builder agent, any
 * other agent, and the person's own session alike. File writes (Write, Edit, MultiEdit,
 * NotebookEdit) are allowed only under `src/contexts/<context>/` and `test/e2e/<context>/` (the
 * end-to-end specs of its slices), never to a dependency file, and outside the worktree only to the
 * null device and the system's scratch directories. A shell command is read by a shell-word parser
 * of the hook's own (quotes, escapes, `&&`, `||`, `;`, `|`, subshells, here-documents, `$(…)`),
 * seen through its wrappers (`env`, `time`, `nice`, `timeout`, `xargs`, `sh -c`, `bash -c`) with
 * its working directory followed through `cd`: the files it writes by redirection (`>`, `>>`),
 * `tee`, `sed -i`, `cp`, `mv`, `rm`, `touch`, `mkdir` and the like follow the rules of file
 * writes; it may not change dependencies; it may not run kit outside the worktree, nor a
 * generator that may write outside its context however kit is invoked (`kit generate`,
 * `deno run -A <checkout>/cli/main.ts generate`, `deno run -A jsr:@kit/cli@<version> generate`,
 * `deno task kit generate`): one naming another context, the kinds that always write shared files,
 * and the others given the option that makes them (`route-group --role`), as the catalog says. A
 * generator run with `--local-only` in the worker's own context is let through: the CLI then
 * refuses it exactly when its plan changes a file outside the context. A program that changes
 * files of its own choosing (git beyond its reads, `deno task`, `make`, a script) runs only in the
 * worktree or a scratch directory. What the hook cannot read
 * (`eval`, a command name the shell expands, inline code given to an interpreter, commands piped
 * into a shell, a write to a path the shell expands) is refused, saying how to do it instead.
 * Anything else is allowed: the confinement is a guard rail, not a sandbox (docs/workflow.md says
 * what it cannot stop).
 *
 * @example
 * ```ts
 * import { decidePreToolUse } from "./pre_tool_use.ts";
 * decidePreToolUse(
 *   { tool_name: "Bash", tool_input: { command: "echo x > src/platform/x.ts" } },
 *   { root: "/w", context: "scheduling" },
 * ); // { allow: false, reason: "..." }
 * ```
 */
export function decidePreToolUse(input: PreToolUseInput, scope: WorkerScope): Decision {
  const tool = input.tool_name ?? "";
  const args = input.tool_input ?? {};
  const cwd = input.cwd ?? scope.root;
  if (["Write", "Edit", "MultiEdit", "NotebookEdit"].includes(tool)) {
    const target = args.file_path ?? args.notebook_path;
    if (typeof target !== "string") return allow;
    return decidePath(isAbsolute(target) ? target : resolve(cwd, target), target, scope);
  }
  if (tool === "Bash" && typeof args.command === "string") {
    return decideCommand(args.command, cwd, scope);
  }
  return allow;
}

/** A file written at `path` (absolute), shown to the agent as `shown`, by a command (`by`) or a tool. */
function decidePath(written: string, shown: string, scope: WorkerScope, by?: string): Decision {
  const path = resolve(written); // `/tmp/../trunk/x` is no scratch file
  const how = by === undefined ? "" : ` (written by ${by})`;
  if (devices.has(path) || path.startsWith("/dev/fd/")) return allow;
  const inWorktree = relative(scope.root, path);
  if (inWorktree.startsWith("..") || isAbsolute(inWorktree)) {
    if (isScratch(path, scope)) return allow;
    return deny(`${shown}${how} is outside this worktree (${scope.root})`);
  }
  if (dependencyFiles.has(basename(inWorktree))) {
    return deny(
      `${inWorktree}${how} holds dependencies: a worker of '${scope.context}' changes no dependency; ask the conductor`,
    );
  }
  const own = [`src/contexts/${scope.context}`, `test/e2e/${scope.context}`];
  if (own.some((dir) => inWorktree === dir || inWorktree.startsWith(`${dir}/`))) return allow;
  return deny(
    `${inWorktree || "."}${how} is outside the scope of '${scope.context}': write only ` +
      `${
        own.map((dir) => `${dir}/`).join(" and ")
      } (shared files change in sequence, by the conductor)`,
  );
}

function decideCommand(command: string, cwd: string, scope: WorkerScope): Decision {
  let effects: CommandEffect[];
  try {
    effects = commandEffects(parseShell(command), cwd);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return deny(
      `the hook cannot read this command line (${error.message}): write it as plain commands`,
    );
  }
  for (const effect of effects) {
    const decision = decideEffect(effect, scope);
    if (!decision.allow) return decision;
  }
  return allow;
}

function decideEffect(effect: CommandEffect, scope: WorkerScope): Decision {
  switch (effect.type) {
    case "dependencies":
      return deny(
        `'${effect.command}' changes dependencies: a worker of '${scope.context}' changes none; ask the conductor`,
      );
    case "opaque":
      return deny(
        `${effect.what}: the hook cannot tell what it changes; ${effect.instead}`,
      );
    case "write": {
      const { path, cwd, by } = effect;
      if (!path.literal) {
        return deny(
          `${by} writes to '${path.text}', which the shell expands: the hook cannot tell where; ` +
            `write the path out`,
        );
      }
      if (cwd === undefined && !isAbsolute(path.text)) {
        return deny(
          `${by} writes '${path.text}' in a directory the hook cannot tell (after a cd it cannot ` +
            `follow): write the path out, from the worktree`,
        );
      }
      // A glob names paths under the directory before it.
      const glob = path.text.search(/[*?[{]/);
      const written = glob === -1
        ? path.text
        : path.text.slice(0, path.text.lastIndexOf("/", glob) + 1) || ".";
      return decidePath(resolve(cwd ?? "/", written), path.text, scope, by);
    }
    case "kit":
      return decideKit(effect, scope);
    case "run":
      return decideElsewhere(effect.program, effect.cwd, scope);
  }
}

function decideKit(
  run: Extract<CommandEffect, { type: "kit" }>,
  scope: WorkerScope,
): Decision {
  const [command, ...rest] = run.args;
  const options = new Set(rest.map((a) => a.text));
  if (command !== undefined && (!command.literal || command.pattern)) {
    return deny(`kit '${command.text}': a command the shell expands; write it out`);
  }
  const name = command?.text;
  const reads = options.has("--help") || options.has("-h") ||
    (name === "docs" && options.has("--check")) ||
    (name === "depcruise-config" && !options.has("--write")) ||
    (name === "worker-scope" && options.has("--dry-run"));
  if (run.unknownArgs && (name === undefined || writingKitCommands.has(name))) {
    return deny(
      `kit given arguments by xargs: the hook cannot tell what it writes; run kit with its arguments written out`,
    );
  }
  if (name === undefined || !writingKitCommands.has(name) || reads) return allow;
  if (run.cwd === undefined) {
    return deny(
      `kit ${name} would run in a directory the hook cannot tell (after a cd it cannot follow): ` +
        `run it from this worktree`,
    );
  }
  const where = relative(scope.root, run.cwd);
  if (where.startsWith("..") || isAbsolute(where)) {
    return deny(
      `kit ${name} would run in ${run.cwd}, outside this worktree (${scope.root}): a worker runs ` +
        `kit in its own worktree only`,
    );
  }
  if (name === "init" || name === "worker-scope") {
    return deny(`kit ${name} is the conductor's, run on the trunk; ask the conductor`);
  }
  if (name !== "generate") return allow;
  return decideGenerate(run, scope);
}

/**
 * `kit generate` in the worktree: allowed in the worker's own context, unless it writes (or,
 * without `--local-only`, may write) shared files.
 */
function decideGenerate(
  run: Extract<CommandEffect, { type: "kit" }>,
  scope: WorkerScope,
): Decision {
  const generator = generatorInvocation(run.args);
  const kindWord = run.args[1];
  if (
    generator !== undefined && kindWord !== undefined && (!kindWord.literal || kindWord.pattern)
  ) {
    return deny(`kit generate '${kindWord.text}': a kind the shell expands; write it out`);
  }
  const kind = generatorKinds.find((k) => k.kind === generator?.kind);
  if (generator === undefined || kind === undefined) return allow;
  const localOnly = generator.options.has("--local-only");
  if (!generator.literal && !localOnly) {
    return deny(
      `kit generate ${kind.kind} with arguments the shell expands: the hook cannot tell what it ` +
        `writes; write them out, or add --local-only`,
    );
  }
  const context = generator.positionals[0];
  if (kind.usage.startsWith("<context>") && context !== undefined && context !== scope.context) {
    return deny(
      `kit generate ${kind.kind} ${context} writes in the context '${context}', not ` +
        `'${scope.context}': a worker generates in its own context only`,
    );
  }
  if (localOnly) return allow;
  const files = sharedFilesGiven(kind, generator.options);
  if (files.length === 0) return allow;
  return deny(
    `kit generate ${kind.kind} ${
      kind.writesShared ? "writes" : `with ${kind.sharedWhen} may write`
    } outside the context (${files.join(", ")}): not in a worker's scope; ask the conductor, ` +
      `or run it with --local-only, which refuses it exactly when it writes outside the context`,
  );
}

/**
 * A program that changes files of its own choosing runs in the worktree, or in a scratch directory
 * that is not beside it; anywhere else (the trunk, another worker's worktree) it is refused.
 */
function decideElsewhere(program: string, cwd: string | undefined, scope: WorkerScope): Decision {
  if (cwd === undefined) {
    return deny(
      `${program} would run in a directory the hook cannot tell (after a cd it cannot follow): ` +
        `run it from this worktree`,
    );
  }
  const where = relative(scope.root, cwd);
  if (!where.startsWith("..") && !isAbsolute(where)) return allow;
  if (isScratch(cwd, scope)) return allow;
  return deny(
    `${program} would run in ${cwd}, outside this worktree (${scope.root}): a worker changes ` +
      `nothing outside its worktree`,
  );
}

/**
 * Whether `path` (absolute, normalised, outside the worktree) is in a system scratch directory,
 * and not beside a worktree that is in one itself (where the trunk and the other workers are).
 */
function isScratch(path: string, scope: WorkerScope): boolean {
  const besideWorktree = !relative(dirname(scope.root), path).startsWith("..");
  return scratch.test(path) && !(scratch.test(scope.root + "/") && besideWorktree);
}

function deny(reason: string): Decision {
  return { allow: false, reason };
}
