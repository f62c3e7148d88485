import { decidePreToolUse, type PreToolUseInput } from "../hook/pre_tool_use.ts";
import { findWorkerScope } from "../hook/worker_scope_file.ts";

/**
 * `kit hook pre-tool-use`: the decision of the coding-agent plugin's pre-write hook. Reads the
 * Claude Code hook input (JSON) from `input`, and answers what to print: nothing (allow) or a
 * PreToolUse `deny` with its reason. Every session in a worker's worktree is decided alike (any
 * agent and the main thread). Fails open: unreadable input, no `.kit/worker.json`, or an
 * unreadable one allow the call.
 */
export async function preToolUseHook(input: string): Promise<string> {
  let parsed: PreToolUseInput;
  try {
    parsed = JSON.parse(input) as PreToolUseInput;
  } catch {
    return "";
  }
  if (typeof parsed !== "object" || parsed === null) return "";
  const scope = await findWorkerScope(parsed.cwd ?? Deno.cwd()).catch(() => undefined);
  if (scope === undefined) return "";
  const decision = decidePreToolUse(parsed, scope);
  if (decision.allow) return "";
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: `kit worker scope (${scope.context}): ${decision.reason}`,
    },
  });
}
