import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { initializedProject } from "../commands/test_project.ts";

async function task(cwd: string, name: string): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", name],
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

Deno.test({
  name:
    "a generated project's verify lists no file it type-checks, and fails on a stale openapi document once the documents exist",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--no-git"]);
    try {
      const fresh = await task(dir, "verify");
      assert.equal(fresh.code, 0, fresh.out);
      assert.deepEqual(fresh.out.split("\n").filter((line) => /^Check /.test(line)), []);
      assert.match(fresh.out, /^docs:check: no document generated yet/m);

      assert.equal((await task(dir, "docs:generate")).code, 0);
      const [document] = (await readdir(join(dir, "openapi"))).filter((f) => f.endsWith(".yaml"));
      const path = join(dir, "openapi", document!);
      await writeFile(
        path,
        (await readFile(path, "utf8")).replace(/^openapi: .*$/m, "openapi: 3.0.0"),
      );
      const stale = await task(dir, "verify");
      assert.notEqual(stale.code, 0, stale.out);
      assert.match(
        stale.out,
        new RegExp(
          `docs:check: stale openapi/${
            RegExp.escape(document!)
          } \\(run 'deno task docs:generate'\\)`,
        ),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
