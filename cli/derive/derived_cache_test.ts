import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { initializedProject, kitIn as kit } from "../commands/test_project.ts";
import { readConfig } from "../project/kit_config.ts";
import { cachedCurrent, derivationInputs, readDerivedCache } from "./derived_cache.ts";

/** Whether the cache says every derived file of the project is current. */
async function cacheSaysCurrent(dir: string): Promise<boolean> {
  const config = await readConfig(dir);
  return await cachedCurrent(dir, await derivationInputs(dir), config.contexts.map((c) => c.name));
}

/** A command class written by hand in a context, as a person would add one. */
async function handWrittenCommand(dir: string, context: string, name: string): Promise<void> {
  const folder = join(dir, `src/contexts/${context}/application/commands/by-hand`);
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, "by-hand.handler.ts"),
    `import { Handles } from "@kit/kernel";\nimport { ${name} } from "./by-hand.command.ts";\n\n/** Runs ${name}. */\n@Handles(${name})\nexport class ${name}Handler {\n  handle(): Promise<void> {\n    return Promise.resolve();\n  }\n}\n`,
  );
  await writeFile(
    join(folder, "by-hand.command.ts"),
    `import { Command } from "@kit/kernel";\n\n/** ${name}. */\nexport class ${name} extends Command<void> {}\n`,
  );
}

Deno.test("a generator derives only its context yet leaves a cache that answers docs --check", async () => {
  const dir = await initializedProject();
  try {
    assert.equal((await kit(dir, "generate", "command", "scheduling", "OpenDay")).result, 0);
    assert.ok(await cacheSaysCurrent(dir), "after a generator on a current project");
    const cache = readDerivedCache(dir);
    for (const context of ["identity", "notifications", "scheduling"]) {
      assert.ok(`src/contexts/${context}/${context}.declarations.ts` in cache!.outputs, context);
    }
    assert.equal((await kit(dir, "docs", "--check")).result, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a source edited by hand in one context is not taken for current by a generator run in another", async () => {
  const dir = await initializedProject();
  try {
    assert.equal((await kit(dir, "generate", "command", "scheduling", "OpenDay")).result, 0);
    await handWrittenCommand(dir, "identity", "ForgetPerson");
    // The generator derives scheduling only: identity's barrel stays stale, and the cache must
    // not say otherwise.
    assert.equal((await kit(dir, "generate", "command", "scheduling", "CloseDay")).result, 0);
    assert.equal(await cacheSaysCurrent(dir), false);
    const check = await kit(dir, "docs", "--check");
    assert.equal(check.result, 1);
    assert.match(
      check.out,
      /the barrel of identity \(src\/contexts\/identity\/identity\.declarations\.ts\) is stale/,
    );
    // `kit docs` derives it; then a generator elsewhere keeps the cache whole again.
    assert.equal((await kit(dir, "docs")).result, 0);
    assert.equal((await kit(dir, "generate", "command", "notifications", "Mute")).result, 0);
    assert.ok(await cacheSaysCurrent(dir));
    assert.equal((await kit(dir, "docs", "--check")).result, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("docs --check derives again only what changed, and still names every stale file", async () => {
  const dir = await initializedProject();
  try {
    assert.equal((await kit(dir, "docs", "--check")).result, 0);
    // A source of identity edited, a derived file of notifications edited by hand.
    await handWrittenCommand(dir, "identity", "ForgetPerson");
    const barrel = join(dir, "src/contexts/notifications/notifications.declarations.ts");
    await writeFile(barrel, `${await Deno.readTextFile(barrel)}// edited by hand\n`);
    const check = await kit(dir, "docs", "--check");
    assert.equal(check.result, 1);
    assert.match(check.out, /docs --check: 3 derived file\(s\) stale/);
    assert.match(check.out, /CONTEXT\.md of identity is stale/);
    assert.match(check.out, /the barrel of identity .* is stale/);
    assert.match(check.out, /the barrel of notifications .* is stale/);
    assert.equal((await kit(dir, "docs")).result, 0);
    assert.equal((await kit(dir, "docs", "--check")).result, 0);
    assert.ok(await cacheSaysCurrent(dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
