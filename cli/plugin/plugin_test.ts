import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { generatorKinds } from "../generators/catalog.ts";

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
  // What the agent is told the hook refuses is what the catalog says.
  const always = /always write outside a context \(([^)]*)\)/.exec(agent.replaceAll("\n", " "))
    ?.[1];
  assert.deepEqual(
    always?.split(",").map((kind) => kind.trim().replaceAll("`", "")).sort(),
    generatorKinds.filter((k) => k.writesShared).map((k) => k.kind).sort(),
  );
  const conditional = generatorKinds.filter((k) => k.sharedWhen !== undefined);
  for (const kind of conditional) assert.ok(agent.includes(`\`${kind.kind} ${kind.sharedWhen}\``));
});
