import assert from "node:assert/strict";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { preToolUseHook } from "../commands/hook.ts";
import { generatorKinds } from "../generators/catalog.ts";
import { decidePreToolUse } from "./pre_tool_use.ts";
import { generatorInvocations } from "./generator_invocations.ts";

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
  assert.match(
    shared.permissionDecisionReason,
    /kit generate route-group with --role may write outside the context \(src\/platform\/auth\/role\.ts\)/,
  );
  assert.equal(await decide("bash-generate-local"), undefined);
});

Deno.test("the hook confines only the context-builder agent: another agent and the main thread pass", async () => {
  assert.equal((await decide("edit-platform")).permissionDecision, "deny");
  assert.equal(await decide("edit-platform-other-agent"), undefined);
  assert.equal(await decide("edit-platform-main-thread"), undefined);
  const scope = { root: "/w", context: "scheduling" };
  const write = { tool_name: "Write", tool_input: { file_path: "/w/kit.config.json" } };
  assert.equal(decidePreToolUse({ ...write, agent_type: "context-builder" }, scope).allow, false);
  assert.equal(
    decidePreToolUse({ ...write, agent_type: "kit:context-builder" }, scope).allow,
    false,
  );
  assert.equal(decidePreToolUse({ ...write, agent_type: "my-context-builder" }, scope).allow, true);
  assert.equal(decidePreToolUse({ ...write, agent_type: "Explore" }, scope).allow, true);
});

/** How kit is run: on the PATH, from a checkout, from JSR, as a task of the project. */
const invocations = [
  "kit",
  "deno run -A /home/dev/kit/cli/main.ts",
  "deno run -A jsr:@kit/cli@^0.1.0",
  "deno run -A jsr:@kit/cli",
  "deno task kit",
];

function bash(command: string): boolean {
  return decidePreToolUse({
    agent_type: "kit:context-builder",
    tool_name: "Bash",
    tool_input: { command },
  }, { root: "/w", context: "scheduling" }).allow;
}

Deno.test("the hook sees a generator however kit is invoked, and decides by the catalog", () => {
  for (const kit of invocations) {
    for (const kind of generatorKinds) {
      assert.equal(
        bash(`${kit} generate ${kind.kind} scheduling Thing`),
        !kind.writesShared,
        `${kit} generate ${kind.kind}`,
      );
      // With --local-only, the CLI refuses exactly: the hook lets it decide.
      assert.equal(bash(`${kit} generate ${kind.kind} scheduling Thing --local-only`), true);
    }
    assert.equal(bash(`${kit} generate route-group scheduling Desk --role=clinic-admin`), false);
    assert.equal(bash(`${kit} generate command scheduling Book --aggregate Appointment`), false);
    assert.equal(bash(`${kit} generate adr scheduling UseSlots --deviation`), false);
    assert.equal(bash(`cd src && ${kit} generate worker; deno task test`), false);
  }
});

Deno.test("the hook reads runs of kit generate, not words that look like them", () => {
  assert.deepEqual(
    generatorInvocations(
      'git commit -m "kit generate context billing" && kit generate route-group scheduling Desk --role admin --local-only | tee log',
    ).map((run) => ({ ...run, options: [...run.options] })),
    [{
      kind: "route-group",
      positionals: ["scheduling", "Desk", "admin"],
      options: ["--role", "--local-only"],
    }],
  );
  assert.equal(bash("echo kit generate context billing"), true);
  assert.equal(bash("deno run -A ./tools/main.ts generate context billing"), true);
  assert.equal(bash("deno run -A ../kit/cli/main.ts generate context billing"), false);
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
