import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

const dir = new URL("./", import.meta.url).pathname;

Deno.test("the Claude Code plugin ships the context-builder agent and the pre-write hook", async () => {
  const manifest = JSON.parse(await readFile(dir + ".claude-plugin/plugin.json", "utf8"));
  assert.equal(manifest.name, "kit");
  const hooks = JSON.parse(await readFile(dir + "hooks/hooks.json", "utf8")).hooks;
  const [entry] = hooks.PreToolUse;
  for (const tool of ["Write", "Edit", "MultiEdit", "Bash"]) {
    assert.ok(entry.matcher.split("|").includes(tool), `the hook sees ${tool}`);
  }
  assert.equal(entry.hooks[0].command, "kit hook pre-tool-use");
  const agent = await readFile(dir + "agents/context-builder.md", "utf8");
  assert.match(agent, /^---\nname: context-builder\n/);
  assert.match(agent, /--local-only/);
  for (const guarantee of ["requireTenant()", "readableTenants()", "expectSaved", "lockFor"]) {
    assert.ok(agent.includes(`\`${guarantee}\``), `the agent is told of ${guarantee}`);
  }
});
