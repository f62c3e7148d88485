import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { initializedProject } from "../commands/test_project.ts";
import { cruiserTypeScript, dependencyCruiser, kitCommand, verifyTask } from "./verify_task.ts";

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
    "a generated project's verify passes listing no file it type-checks; docs:check fails on a stale openapi document once the documents exist",
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
      const stale = await task(dir, "docs:check");
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

Deno.test("verify runs every check of a generated project, the derived files' first and the unused last", () => {
  const kit = kitCommand([]);
  assert.deepEqual(verifyTask([]).split(" && "), [
    // A stale derived file (CONTEXT.md, a barrel) or two migrations under one number: by rule.
    `${kit} docs --check`,
    "deno fmt --check",
    "deno lint",
    // An error code of no known status on a route does not type-check.
    "deno check --quiet .",
    "deno test --quiet --no-check -A test/architecture/extractable.spec.ts test/contract.spec.ts",
    // A stale OpenAPI or AsyncAPI document.
    "deno task docs:check",
    `${kit} depcruise-config --check`,
    // A domain importing infrastructure, each architecture rule by name.
    `deno run -A --no-config --preload ${cruiserTypeScript} ${dependencyCruiser} --output-type err-long --config .dependency-cruiser.cjs src`,
    // Files, exports and dependencies nobody uses.
    `${kit} check unused`,
  ]);
});
