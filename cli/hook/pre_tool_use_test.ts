import assert from "node:assert/strict";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { preToolUseHook } from "../commands/hook.ts";

const testdata = new URL("./testdata/", import.meta.url).pathname;

/** A worktree with `.kit/worker.json` for `scheduling` (or none, or a broken one). */
async function worktree(scope: "scheduling" | "none" | "broken"): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "kit-hook-" });
  await mkdir(join(root, "src/contexts/scheduling"), { recursive: true });
  if (scope !== "none") {
    await mkdir(join(root, ".kit"));
    await writeFile(
      join(root, ".kit/worker.json"),
      scope === "broken" ? "{ not json" : JSON.stringify({ context: "scheduling" }),
    );
  }
  return root;
}

/** A recorded Claude Code hook input, placed in the worktree. */
async function recorded(name: string, root: string): Promise<string> {
  return (await readFile(join(testdata, `${name}.json`), "utf8")).replaceAll("{root}", root);
}

async function decide(name: string, scope: "scheduling" | "none" | "broken" = "scheduling") {
  const root = await worktree(scope);
  try {
    const out = await preToolUseHook(await recorded(name, root));
    return out === "" ? undefined : JSON.parse(out).hookSpecificOutput;
  } finally {
    await rm(root, { recursive: true });
  }
}

Deno.test("the hook lets a worker write its own context and its slices' end-to-end specs", async () => {
  assert.equal(await decide("write-own-context"), undefined);
  assert.equal(await decide("write-e2e-spec"), undefined);
  assert.equal(await decide("read-anything"), undefined);
});

Deno.test("the hook refuses writes outside the context, naming the file and the scope", async () => {
  const platform = await decide("edit-platform");
  assert.equal(platform.hookEventName, "PreToolUse");
  assert.equal(platform.permissionDecision, "deny");
  assert.match(
    platform.permissionDecisionReason,
    /src\/platform\/compose-application\.ts is outside the scope of 'scheduling'/,
  );
  // A relative path from a subdirectory, into another context's published language.
  const other = await decide("multiedit-other-context");
  assert.match(other.permissionDecisionReason, /src\/contexts\/identity\/published-language/);
});

Deno.test("the hook refuses generators that write shared files, and allows the others", async () => {
  const shared = await decide("bash-generate-shared");
  assert.equal(shared.permissionDecision, "deny");
  assert.match(shared.permissionDecisionReason, /audited-events\.ts/);
  assert.equal(await decide("bash-generate-local"), undefined);
});

Deno.test("the hook refuses dependency changes, by command and by file", async () => {
  assert.match((await decide("bash-add-dependency")).permissionDecisionReason, /dependencies/);
  assert.match((await decide("edit-deno-json")).permissionDecisionReason, /holds dependencies/);
});

Deno.test("the hook fails open: no worker file, an unreadable one, or input it cannot parse", async () => {
  assert.equal(await decide("edit-platform", "none"), undefined);
  assert.equal(await decide("edit-platform", "broken"), undefined);
  assert.equal(await preToolUseHook("not json"), "");
});

Deno.test("kit hook pre-tool-use answers Claude Code over stdin and stdout", async () => {
  const root = await worktree("scheduling");
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname, "hook", "pre-tool-use"],
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(await recorded("edit-platform", root)));
    await writer.close();
    const { code, stdout } = await child.output();
    assert.equal(code, 0);
    const answer = JSON.parse(new TextDecoder().decode(stdout));
    assert.equal(answer.hookSpecificOutput.permissionDecision, "deny");
  } finally {
    await rm(root, { recursive: true });
  }
});
