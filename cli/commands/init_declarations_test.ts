/**
 * `kit init --declarations decorators|builder`: the style is written to `kit.config.json` (the
 * decorators by default), a value that is neither is refused in one line with nothing written,
 * and `kit init --help` names the option.
 */
import assert from "node:assert/strict";
import { printed } from "./test_project.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

async function declarationsOf(dir: string): Promise<unknown> {
  return JSON.parse(await readFile(join(dir, "kit.config.json"), "utf8")).declarations;
}

Deno.test("kit init --declarations writes the style; the decorators by default; another value refused in one line, nothing written", async () => {
  const help = await printed(["init", "--help"]);
  assert.match(help.out, /\[--declarations decorators\|builder\]/);
  assert.match(help.out, /--declarations how generators declare classes: decorators \(the default/);
  const dir = await Deno.makeTempDir({ prefix: "kit-init-declarations-" });
  try {
    for (
      const value of [["--declarations", "decorator"], ["--declarations="], [
        "--declarations",
        "Builder",
      ]]
    ) {
      const refused = await printed([
        "init",
        `${dir}/shop`,
        "--context",
        "catalog:core",
        "--no-git",
        ...value,
      ]);
      assert.equal(refused.code, 1);
      assert.equal(
        refused.err,
        `kit: Invalid --declarations '${value[1] ?? ""}': use decorators or builder\n`,
      );
      assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing written");
    }
    const link = new URL("../../", import.meta.url).pathname;
    const made = async (name: string, ...flags: string[]) => {
      const run = await printed([
        "init",
        `${dir}/${name}`,
        "--context",
        "catalog:core",
        "--no-git",
        "--link",
        link,
        ...flags,
      ]);
      assert.equal(run.code, 0, run.err);
      return await declarationsOf(join(dir, name));
    };
    assert.equal(await made("builder", "--declarations", "builder"), "builder");
    assert.equal(await made("decorators", "--declarations=decorators"), "decorators");
    assert.equal(await made("plain"), "decorators");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
