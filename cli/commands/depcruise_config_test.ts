import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { depcruiseConfig } from "../check/depcruise_rules.ts";
import { main } from "../main.ts";
import type { KitConfig } from "../project/kit_config.ts";
import { initializedProject, projectTree, quietly } from "./test_project.ts";

const path = ".dependency-cruiser.cjs";

Deno.test("kit depcruise-config --write restores a hand-edited file; --check refuses it first", async () => {
  const dir = await initializedProject();
  try {
    const written = await readFile(join(dir, path), "utf8");
    assert.match(written, /^\/\/ Derived from kit\.config\.json/);
    assert.match(written, /name: "domain-imports-no-infrastructure"/);

    const printed: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void printed.push(args.join(" "));
    try {
      assert.equal(await main(["depcruise-config"], dir), 0);
    } finally {
      console.log = log;
    }
    assert.equal(printed.join("\n") + "\n", written, "the printed config is the file's bytes");

    await writeFile(join(dir, path), written.replace('severity: "error"', 'severity: "warn"'));
    const before = await projectTree(dir);
    const check = await quietly(() => main(["depcruise-config", "--check"], dir));
    assert.equal(check.result, 1);
    assert.deepEqual(check.stderr, [
      "kit: '.dependency-cruiser.cjs' is stale: it is derived from kit.config.json (run 'kit depcruise-config --write')",
    ]);
    const both = await quietly(() => main(["depcruise-config", "--check", "--write"], dir));
    assert.equal(both.result, 1);
    assert.deepEqual(both.stderr, ["kit: Use --check or --write, not both"]);
    assert.deepEqual(await projectTree(dir), before, "a refusal changes no file");

    assert.equal((await quietly(() => main(["depcruise-config", "--write"], dir))).result, 0);
    assert.equal(await readFile(join(dir, path), "utf8"), written);
    assert.equal((await quietly(() => main(["depcruise-config", "--check"], dir))).result, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kit generate context and gateway rewrite .dependency-cruiser.cjs from the config", async () => {
  const dir = await initializedProject();
  try {
    for (
      const args of [
        ["generate", "context", "billing", "--kind", "core"],
        ["generate", "gateway", "billing", "identity"],
      ]
    ) {
      const run = await quietly(() => main(args, dir));
      assert.equal(run.result, 0, run.stderr.join("\n"));
    }
    const text = await readFile(join(dir, path), "utf8");
    assert.match(text, /\^src\/contexts\/billing\/infrastructure/);
    assert.match(text, /pathNot: "\^src\/contexts\/\(billing\|identity\)\/"/);
    assert.equal((await quietly(() => main(["depcruise-config", "--check"], dir))).result, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("depcruiseConfig() gives the same bytes whatever the order of contexts and relationships", () => {
  const config = (reverse: boolean): KitConfig => {
    const contexts = [{ name: "a", kind: "core" }, { name: "b", kind: "core" }, {
      name: "c",
      kind: "generic",
    }];
    const relationships = [{ upstream: "a", downstream: "c" }, { upstream: "b", downstream: "c" }];
    return {
      name: "app",
      contexts: reverse ? contexts.toReversed() : contexts,
      relationships: reverse ? relationships.toReversed() : relationships,
      queue: "memory",
      declarations: "decorators",
    };
  };
  assert.equal(depcruiseConfig(config(true)), depcruiseConfig(config(false)));
  assert.match(depcruiseConfig(config(true)), /\^src\/contexts\/\(c\|a\|b\)\//);
});
